package io.kovn.bench;

import io.kovn.controller.policy.NorthboundRows;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.OperationCodec;
import io.kovn.runtime.testing.OvnDatabases;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The physical floor for a zone's policy convergence: the converged NB's policy rows (ACL, Address_Set, Port_Group of
 * the policy owner types, and the {@code acl-logging} Meter with its band) copied into a fresh NB as ONE transaction,
 * its JSON-RPC bytes written raw to the server's socket (as {@link OvsdbBulkLoadBench} does). The fresh NB first gets
 * the zone's switch with ports of the same names (not timed), so port group members resolve to real rows as they did.
 */
final class RawBaseline {
    private static final String NB = "OVN_Northbound";

    /**
     * One raw load: wall time, the server's CPU and what it spent in the kernel ({@link Kernel}), rows loaded, request
     * size.
     */
    record Load(
            long wallNs,
            long serverCpuNs,
            Kernel serverKernel,
            int operations,
            int requestBytes,
            Map<String, Integer> rows,
            long memberships) {}

    private RawBaseline() {}

    /** Copies the policy rows of {@code converged} into a fresh NB as one raw transact and measures it. */
    static Load load(MonitorCache converged, String controller) throws Exception {
        return load(converged, controller, null, null, 0);
    }

    /**
     * The same with a {@link Bystander} attached to the fresh NB (in this JVM or a child JVM, as {@code bystander}
     * says), the wall time running until it sees every row: the convergence's "NB enforcing" measured under the same
     * conditions, so the ratio is the controller's overhead and not the measuring monitor's. With {@code timelineMs} >
     * 0 it prints a {@link ProcessTimeline} of the load in buckets of that many ms.
     */
    static Load watched(
            MonitorCache converged, String controller, Bystander.Mode bystander, Bystander.Watch watch, long timelineMs)
            throws Exception {
        return load(converged, controller, Objects.requireNonNull(bystander), watch, timelineMs);
    }

    private static Load load(
            MonitorCache converged, String controller, Bystander.Mode bystander, Bystander.Watch watch, long timelineMs)
            throws Exception {
        NorthboundObserver.PolicyRows target = NorthboundObserver.PolicyRows.of(converged);
        return fresh(converged, controller, (fresh, c, request, operations) -> {
            long pid = fresh.nb().pid().orElseThrow();
            try (Bystander watcher = bystander == null
                            ? null
                            : Bystander.connect(bystander, watch, fresh.nb().unixEndpoint());
                    ProcessTimeline timeline = watcher == null || timelineMs <= 0
                            ? null
                            : ProcessTimeline.start(ProcessTimeline.benchmarkProcesses(pid, Map.of(), watcher.pid()))) {
                long s0 = processCpu(pid);
                Kernel k0 = Kernel.of(pid);
                long t0 = System.nanoTime();
                long wall = send(fresh.nb().socket(), request);
                long sent = t0 + wall;
                if (watcher != null) {
                    wall = Math.max(wall, watcher.await(target, 300_000) - t0);
                }
                long server = processCpu(pid) - s0;
                if (timeline != null) {
                    timeline.close();
                    timeline.print(
                            "raw load with the bystander", t0, timelineMs, Map.of("replied", sent, "seen", t0 + wall));
                }
                return new Load(
                        wall,
                        server,
                        Kernel.of(pid).since(k0),
                        operations,
                        request.length,
                        rowCounts(c),
                        memberships(c));
            }
        });
    }

    /** Work on a fresh NB that holds a copy of a converged zone's policy rows. */
    interface OnCopy<T> {
        T run(OvnDatabases fresh) throws Exception;
    }

    /**
     * Starts a fresh NB, copies the converged policy rows into it (untimed: the same raw load) and runs {@code task} on
     * it; its switch ports have the converged ones' names, its rows their names.
     */
    static <T> T withCopy(MonitorCache converged, String controller, OnCopy<T> task) throws Exception {
        return fresh(converged, controller, (fresh, c, request, operations) -> {
            RawTransact.send(fresh.nb().socket(), request);
            return task.run(fresh);
        });
    }

    private interface OnFresh<T> {
        T run(OvnDatabases fresh, OvsdbClient client, byte[] request, int operations) throws Exception;
    }

    /** A fresh NB with the zone's switch and its ports, and the raw request that loads the policy rows into it. */
    private static <T> T fresh(MonitorCache converged, String controller, OnFresh<T> task) throws Exception {
        Owner policies = NorthboundRows.owner(controller);
        Owner meter = NorthboundRows.meterOwner(controller);
        List<Row> acls = converged.table("ACL").select(policies::owns);
        List<Row> sets = converged.table("Address_Set").select(policies::owns);
        List<Row> groups = converged.table("Port_Group").select(policies::owns);
        List<Row> meters = converged.table("Meter").select(meter::owns);
        Map<Uuid, String> portNames = new HashMap<>();
        converged.table("Logical_Switch_Port").rows().forEach(r -> portNames.put(r.uuid(), (String) r.get("name")));
        Set<String> members = new TreeSet<>();
        groups.forEach(g -> ((Set<?>) g.get("ports")).forEach(u -> members.add(portNames.get((Uuid) u))));

        try (OvnDatabases fresh = OvnDatabases.start(OvnDatabases.Config.nbOnly());
                OvsdbClient c = OvsdbClient.builder()
                        .endpoint(fresh.nb().unixEndpoint())
                        .timeout(Duration.ofMinutes(5))
                        .connect()) {
            Map<Uuid, Object> refs = new HashMap<>();
            Map<String, Uuid> freshPorts = switchWithPorts(c, members);
            portNames.forEach((uuid, name) -> {
                if (freshPorts.containsKey(name)) {
                    refs.put(uuid, freshPorts.get(name));
                }
            });
            List<Operation> ops = new ArrayList<>();
            for (Row m : meters) {
                for (Object band : (Set<?>) m.get("bands")) {
                    Row b = converged.table("Meter_Band").get((Uuid) band).orElseThrow();
                    ops.add(insert("Meter_Band", b, refs, "band" + ops.size()));
                }
                ops.add(insert("Meter", m, refs, null));
            }
            sets.forEach(s -> ops.add(insert("Address_Set", s, refs, null)));
            for (int i = 0; i < acls.size(); i++) {
                ops.add(insert("ACL", acls.get(i), refs, "acl" + i));
            }
            groups.forEach(g -> ops.add(insert("Port_Group", g, refs, null)));
            byte[] request = Json.bytes(Json.object()
                    .put("method", "transact")
                    .put("id", 1)
                    .set("params", OperationCodec.transactParams(NB, ops)));
            return task.run(fresh, c, request, ops.size());
        }
    }

    /** Row counts of the policy tables in the converged NB, to compare with a loaded one. */
    static Map<String, Integer> rowCounts(MonitorCache cache, String controller) {
        Owner policies = NorthboundRows.owner(controller);
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String t : List.of("ACL", "Address_Set", "Port_Group")) {
            out.put(t, cache.table(t).select(policies::owns).size());
        }
        out.put("Meter", cache.table("Meter").size());
        return out;
    }

    /** Port group memberships (sum of port set sizes) of the policy owner types. */
    static long memberships(MonitorCache cache, String controller) {
        return cache.table("Port_Group").select(NorthboundRows.owner(controller)::owns).stream()
                .mapToLong(g -> ((Set<?>) g.get("ports")).size())
                .sum();
    }

    private static Map<String, Integer> rowCounts(OvsdbClient c) throws Exception {
        try (MonitorCache cache = cache(c)) {
            return rowCounts(cache, ObjectId.DEFAULT_CONTROLLER);
        }
    }

    private static long memberships(OvsdbClient c) throws Exception {
        try (MonitorCache cache = cache(c)) {
            return memberships(cache, ObjectId.DEFAULT_CONTROLLER);
        }
    }

    private static MonitorCache cache(OvsdbClient c) throws Exception {
        MonitorCache cache = MonitorCache.start(
                c,
                NB,
                List.of(
                        TableMonitor.all("ACL"),
                        TableMonitor.all("Address_Set"),
                        TableMonitor.all("Port_Group"),
                        TableMonitor.all("Meter")));
        cache.synced().get(2, TimeUnit.MINUTES);
        return cache;
    }

    /** The zone's switch with ports of these names (what the zone controller made), not timed. */
    static Map<String, Uuid> switchWithPorts(OvsdbClient c, Set<String> names) {
        List<Operation> ops = new ArrayList<>();
        Set<NamedUuid> ports = new HashSet<>();
        List<String> order = new ArrayList<>(names);
        for (int i = 0; i < order.size(); i++) {
            Operation.Insert p = Ops.insert("Logical_Switch_Port", Map.of("name", order.get(i)))
                    .named("p" + i);
            ops.add(p);
            ports.add(p.ref());
        }
        ops.add(Ops.insert("Logical_Switch", Map.of("name", PolicyBenchCluster.ZONE, "ports", ports)));
        var result = c.transact(NB, ops);
        Map<String, Uuid> out = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            out.put(order.get(i), result.uuid("p" + i).orElseThrow());
        }
        return out;
    }

    /** An insert of {@code row}'s columns, row references renamed through {@code refs}. */
    private static Operation.Insert insert(String table, Row row, Map<Uuid, Object> refs, String uuidName) {
        Map<String, Object> columns = new HashMap<>();
        row.columns().forEach((k, v) -> columns.put(k, remap(v, refs)));
        Operation.Insert op = Ops.insert(table, columns);
        if (uuidName != null) {
            op = op.named(uuidName);
            refs.put(row.uuid(), op.ref());
        }
        return op;
    }

    private static Object remap(Object value, Map<Uuid, Object> refs) {
        return switch (value) {
            case Uuid u -> {
                Object to = refs.get(u);
                if (to == null) {
                    throw new IllegalStateException("row reference " + u + " has no counterpart in the fresh NB");
                }
                yield to;
            }
            case Set<?> s -> {
                Set<Object> out = new HashSet<>();
                s.forEach(v -> out.add(remap(v, refs)));
                yield Set.copyOf(out);
            }
            default -> value;
        };
    }

    /** Writes the request to the server's socket, reads the whole reply; the wall time in ns. */
    private static long send(Path socket, byte[] request) throws IOException {
        long t0 = System.nanoTime();
        RawTransact.send(socket, request);
        return System.nanoTime() - t0;
    }

    /**
     * What a process has cost in the kernel so far: its {@code stime} in ms ({@code /proc/<pid>/stat}, at Linux's
     * USER_HZ of 100), its minor page faults, and its voluntary and involuntary context switches
     * ({@code /proc/<pid>/status}), and its read and write system calls and the bytes they moved
     * ({@code /proc/<pid>/io}: sockets and files alike). The NB server's kernel time varies by run for the same work
     * (BENCHMARKS.md, "Noise on this machine"; the measurements are in git history); the counts say whether it did more
     * in the kernel or paid more for the same.
     */
    record Kernel(
            long systemMs,
            long minorFaults,
            long voluntarySwitches,
            long involuntarySwitches,
            long readCalls,
            long writeCalls,
            long readBytes,
            long writtenBytes) {
        static Kernel of(long pid) {
            try {
                ProcStat stat = ProcStat.of(pid);
                long voluntary = 0;
                long involuntary = 0;
                for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        voluntary = Long.parseLong(
                                line.substring(line.indexOf(':') + 1).strip());
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        involuntary = Long.parseLong(
                                line.substring(line.indexOf(':') + 1).strip());
                    }
                }
                Map<String, Long> io = new HashMap<>();
                for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/io"))) {
                    int colon = line.indexOf(':');
                    io.put(
                            line.substring(0, colon),
                            Long.parseLong(line.substring(colon + 1).strip()));
                }
                return new Kernel(
                        stat.systemTicks() * 10,
                        stat.minorFaults(),
                        voluntary,
                        involuntary,
                        io.getOrDefault("syscr", 0L),
                        io.getOrDefault("syscw", 0L),
                        io.getOrDefault("rchar", 0L),
                        io.getOrDefault("wchar", 0L));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** What was spent between {@code before} and this reading. */
        Kernel since(Kernel before) {
            return new Kernel(
                    systemMs - before.systemMs,
                    minorFaults - before.minorFaults,
                    voluntarySwitches - before.voluntarySwitches,
                    involuntarySwitches - before.involuntarySwitches,
                    readCalls - before.readCalls,
                    writeCalls - before.writeCalls,
                    readBytes - before.readBytes,
                    writtenBytes - before.writtenBytes);
        }
    }

    /** CPU time of a process in ns: its threads' run time from /proc/PID/task/TID/schedstat. */
    static long processCpu(long pid) {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            long sum = 0;
            for (Path t : tasks.toList()) {
                try {
                    String stat = Files.readString(t.resolve("schedstat"));
                    sum += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
            return sum;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
