package io.kovn.bench;

import io.kovn.controller.policy.PolicyController;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The NB server's floor for a relabel: the address set, port group and ACL writes of one of kovn's relabels (as a
 * bystander's monitor saw them: a mutate per changed set column, an update per rewritten column, e.g. a named-port
 * ACL's match), replayed into a fresh NB holding a copy of the zone's policy rows, undone and redone one transaction at
 * a time. The writing client monitors the NB with the policy controller's request, as the controller does (the server
 * sends it each change before the reply), and an observer watches with the same request, as in the relabel series. So a
 * round trip is what the server and a client that does nothing else need for the same operations: the least any
 * controller's queue-to-done could be for that relabel, in the same run.
 */
final class RawRelabels {
    private static final String NB = "OVN_Northbound";
    private static final String SWITCH_PORT = "Logical_Switch_Port";

    /** Each replayed transaction's round trip and the NB server's CPU until 20 ms after it. */
    record Floor(long[] roundTripNs, long[] serverCpuNs, int operations) {}

    /** One row's change: elements of one set column that joined and that left. */
    private record Toggle(String table, String row, String column, Set<Object> joined, Set<Object> left) {}

    /** One row's change: a column rewritten (a row without a name is found by its {@code k8s.ovn.org/id}). */
    private record Rewrite(String table, String id, String column, Object before, Object after) {}

    private RawRelabels() {}

    /**
     * Replays {@code relabel} (one transaction's changes of address sets, port groups and ACLs) {@code count} times,
     * alternately undone and redone, into a copy of the {@code converged} zone.
     */
    static Floor replay(MonitorCache converged, String controller, List<RowChange> relabel, int count)
            throws Exception {
        if (relabel.isEmpty()) {
            throw new IllegalStateException("no relabel to replay");
        }
        Map<Uuid, String> portNames = new HashMap<>();
        converged.table(SWITCH_PORT).rows().forEach(r -> portNames.put(r.uuid(), (String) r.get("name")));
        List<Toggle> toggles = new ArrayList<>();
        List<Rewrite> rewrites = new ArrayList<>();
        for (RowChange change : relabel) {
            if (!(change instanceof RowChange.Updated u)) {
                throw new IllegalStateException("a relabel inserts or deletes no policy row: " + change);
            }
            for (String column : changedColumns(u)) {
                if (u.old().get(column) instanceof Set<?> && u.row().get(column) instanceof Set<?>) {
                    toggles.add(toggle(u, column, portNames));
                } else {
                    rewrites.add(rewrite(u, column));
                }
            }
        }
        return RawBaseline.withCopy(converged, controller, fresh -> run(fresh, toggles, rewrites, count));
    }

    private static Rewrite rewrite(RowChange.Updated u, String column) {
        Object before = u.old().get(column);
        Object after = u.row().get(column);
        if (before instanceof Uuid
                || after instanceof Uuid
                || before instanceof Map<?, ?>
                || after instanceof Map<?, ?>) {
            throw new IllegalStateException("not replayed: a rewrite of " + u.table() + " " + column);
        }
        String id = u.row().stringMap("external_ids").get(Owner.ID);
        if (id == null) {
            throw new IllegalStateException("a rewritten " + u.table() + " row without an id: "
                    + u.row().uuid());
        }
        return new Rewrite(u.table(), id, column, before, after);
    }

    private static Floor run(OvnDatabases fresh, List<Toggle> toggles, List<Rewrite> rewrites, int count)
            throws Exception {
        String endpoint = fresh.nb().unixEndpoint();
        try (OvsdbClient c = OvsdbClient.builder()
                        .endpoint(endpoint)
                        .timeout(Duration.ofMinutes(2))
                        .connect();
                MonitorCache own = MonitorCache.start(c, NB, PolicyController.NB_MONITORS);
                NorthboundObserver observer = NorthboundObserver.connect(endpoint)) {
            own.synced().get(2, TimeUnit.MINUTES);
            List<Operation> undo = new ArrayList<>();
            List<Operation> redo = new ArrayList<>();
            for (Toggle t : toggles) {
                Uuid row = own.table(t.table()).byName(t.row()).stream()
                        .findFirst()
                        .map(Row::uuid)
                        .orElseThrow(() -> new IllegalStateException("the copy has no " + t.table() + " " + t.row()));
                Set<Object> joined = inCopy(own, t.joined());
                Set<Object> left = inCopy(own, t.left());
                redo.add(Ops.mutate(t.table(), row, mutations(t.column(), joined, left)));
                undo.add(Ops.mutate(t.table(), row, mutations(t.column(), left, joined)));
            }
            for (Rewrite r : rewrites) {
                Uuid row = own.table(r.table()).byExternalId(Owner.ID, r.id()).stream()
                        .findFirst()
                        .map(Row::uuid)
                        .orElseThrow(() -> new IllegalStateException("the copy has no " + r.table() + " " + r.id()));
                redo.add(Ops.update(r.table(), row, Map.of(r.column(), r.after())));
                undo.add(Ops.update(r.table(), row, Map.of(r.column(), r.before())));
            }
            long pid = fresh.nb().pid().orElseThrow();
            long[] trips = new long[count];
            long[] cpu = new long[count];
            System.gc(); // the copy's garbage is collected here, not in a pause during the series
            for (int i = 0; i < count; i++) {
                long cpu0 = RawBaseline.processCpu(pid);
                long t0 = System.nanoTime();
                c.transact(NB, i % 2 == 0 ? undo : redo);
                trips[i] = System.nanoTime() - t0;
                Thread.sleep(20); // as the series waits for 20 quiet ms after each relabel
                cpu[i] = RawBaseline.processCpu(pid) - cpu0;
                if (i < 2) {
                    check(own, toggles, rewrites, i % 2 == 0);
                }
            }
            return new Floor(trips, cpu, undo.size());
        }
    }

    /** Fails unless the copy holds the relabel undone (or redone): a replay that changed nothing would time nothing. */
    private static void check(MonitorCache own, List<Toggle> toggles, List<Rewrite> rewrites, boolean undone) {
        for (Rewrite r : rewrites) {
            Object now = own.table(r.table())
                    .byExternalId(Owner.ID, r.id())
                    .getFirst()
                    .get(r.column());
            if (!Objects.equals(now, undone ? r.before() : r.after())) {
                throw new IllegalStateException("the replay did not " + (undone ? "undo" : "redo") + " " + r);
            }
        }
        for (Toggle t : toggles) {
            Set<?> now =
                    (Set<?>) own.table(t.table()).byName(t.row()).getFirst().get(t.column());
            Set<Object> in = inCopy(own, undone ? t.left() : t.joined());
            Set<Object> out = inCopy(own, undone ? t.joined() : t.left());
            if (!now.containsAll(in) || out.stream().anyMatch(now::contains)) {
                throw new IllegalStateException("the replay did not " + (undone ? "undo" : "redo") + " " + t);
            }
        }
    }

    private static Mutation[] mutations(String column, Set<Object> insert, Set<Object> delete) {
        List<Mutation> out = new ArrayList<>(2);
        if (!insert.isEmpty()) {
            out.add(Mutation.insert(column, insert));
        }
        if (!delete.isEmpty()) {
            out.add(Mutation.delete(column, delete));
        }
        return out.toArray(Mutation[]::new);
    }

    /** The columns an update changed: the server's diff when it sent one, else every column that differs. */
    private static Set<String> changedColumns(RowChange.Updated u) {
        if (u.columnDiffs() != null) {
            return u.columnDiffs().keySet();
        }
        Set<String> out = new HashSet<>();
        u.row().columns().forEach((k, v) -> {
            if (!v.equals(u.old().get(k))) {
                out.add(k);
            }
        });
        return out;
    }

    private static Toggle toggle(RowChange.Updated u, String column, Map<Uuid, String> portNames) {
        if (!(u.old().get(column) instanceof Set<?> before) || !(u.row().get(column) instanceof Set<?> after)) {
            throw new IllegalStateException("a relabel changes set columns only: " + u.table() + " " + column);
        }
        Set<Object> joined = new HashSet<>();
        Set<Object> left = new HashSet<>();
        Set<?> changed = u.columnDiffs() != null && u.columnDiffs().get(column) instanceof Set<?> diff
                ? diff
                : symmetric(before, after);
        for (Object e : changed) {
            Object named = e instanceof Uuid port ? new PortName(portNames.get(port)) : e;
            (after.contains(e) ? joined : left).add(named);
        }
        return new Toggle(u.table(), (String) u.row().get("name"), column, joined, left);
    }

    private static Set<Object> symmetric(Set<?> a, Set<?> b) {
        Set<Object> out = new HashSet<>();
        a.stream().filter(e -> !b.contains(e)).forEach(out::add);
        b.stream().filter(e -> !a.contains(e)).forEach(out::add);
        return out;
    }

    /** A switch port by name, resolved to the copy's uuid. */
    private record PortName(String name) {}

    /** The elements as the copy holds them: switch ports by the copy's uuids. */
    private static Set<Object> inCopy(MonitorCache own, Set<Object> elements) {
        Set<Object> out = new HashSet<>();
        for (Object e : elements) {
            out.add(
                    e instanceof PortName p
                            ? NorthboundObserver.port(own, p.name())
                                    .orElseThrow(
                                            () -> new IllegalStateException("the copy has no switch port " + p.name()))
                            : e);
        }
        return out;
    }
}
