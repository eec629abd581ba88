package io.kovn.bench;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.cache.TableCache;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A bystander's view of a zone's NB: its own connection and monitor cache of the policy tables and switch port names,
 * so "end to end" means committed by the server and published to another client (not merely sent by the controller).
 * Records when each update arrived and how many address set and port group rows it changed; while asked to
 * ({@link #recordPolicyRows}), also the policy rows it held after each update, to find when a converging controller's
 * last row arrived. ACLs and meters are monitored by the columns those counts need only, so watching them adds little
 * to the server's and this JVM's work.
 */
final class NorthboundObserver implements Bystander {
    static final String ADDRESS_SET = "Address_Set";
    static final String PORT_GROUP = "Port_Group";
    static final String SWITCH_PORT = "Logical_Switch_Port";
    static final String ACL = "ACL";
    static final String METER = "Meter";

    /** Policy rows as {@link RawBaseline#rowCounts} and {@link RawBaseline#memberships} count them. */
    record PolicyRows(Map<String, Integer> rows, long memberships) {
        static PolicyRows of(MonitorCache cache) {
            return new PolicyRows(
                    RawBaseline.rowCounts(cache, ObjectId.DEFAULT_CONTROLLER),
                    RawBaseline.memberships(cache, ObjectId.DEFAULT_CONTROLLER));
        }
    }

    /** One update's arrival ({@link System#nanoTime}) and the policy rows the cache held after it. */
    private record Arrival(long nanos, PolicyRows rows) {}

    private final OvsdbClient client;
    private final MonitorCache cache;
    private long version;
    private long updates;
    private long lastArrival;
    private List<Arrival> arrivals; // null unless recording
    private long changedSets;
    private long changedGroups;
    /** The address set, port group and ACL changes of the last update that had any. */
    private List<RowChange> lastPolicyChanges = List.of();

    private NorthboundObserver(OvsdbClient client, MonitorCache cache) {
        this.client = client;
        this.cache = cache;
        cache.addListener(this::onUpdate);
    }

    static NorthboundObserver connect(String endpoint) throws Exception {
        return connect(endpoint, Bystander.Watch.POLICY);
    }

    /** Connects with the monitor request {@code watch} names (by default the policy controller's own). */
    static NorthboundObserver connect(String endpoint, Bystander.Watch watch) throws Exception {
        OvsdbClient client = OvsdbClient.builder()
                .endpoint(endpoint)
                .timeout(Duration.ofMinutes(2))
                .connect();
        MonitorCache cache = MonitorCache.start(client, "OVN_Northbound", watch.tables());
        cache.synced().get(2, TimeUnit.MINUTES);
        return new NorthboundObserver(client, cache);
    }

    private synchronized void onUpdate(CacheUpdate update) {
        long now = System.nanoTime();
        boolean counted = false;
        List<RowChange> policyChanges = new ArrayList<>();
        for (RowChange c : update.changes()) {
            if (c.table().equals(ADDRESS_SET)
                    || c.table().equals(PORT_GROUP)
                    || c.table().equals(ACL)) {
                policyChanges.add(c);
            }
            switch (c.table()) {
                case ADDRESS_SET -> changedSets++;
                case PORT_GROUP -> changedGroups++;
                default -> {}
            }
            counted |= c.table().equals(ADDRESS_SET)
                    || c.table().equals(PORT_GROUP)
                    || c.table().equals(SWITCH_PORT);
        }
        // the ACL and meter tables are monitored for convergence only: an update of theirs alone is no event
        version += counted ? 1 : 0;
        if (!policyChanges.isEmpty()) {
            lastPolicyChanges = policyChanges;
        }
        updates++;
        lastArrival = now;
        if (arrivals != null) {
            arrivals.add(new Arrival(now, PolicyRows.of(cache)));
        }
        notifyAll();
    }

    /**
     * From now on, counts the policy rows after each update (a scan of the cache's policy tables per update: meant for
     * the few, large updates of a convergence), starting with what it holds now.
     */
    @Override
    public synchronized void recordPolicyRows() {
        arrivals = new ArrayList<>();
        arrivals.add(new Arrival(System.nanoTime(), PolicyRows.of(cache)));
    }

    /**
     * Waits until the cache holds {@code target}, stops recording, and returns when the first update after which it
     * held them arrived (the recording's start if it held them already then).
     */
    @Override
    public long firstArrivalWith(PolicyRows target, long timeoutMs) throws InterruptedException {
        await(target, timeoutMs);
        synchronized (this) {
            List<Arrival> seen = arrivals;
            arrivals = null;
            if (seen == null) {
                throw new IllegalStateException("policy rows were not being recorded");
            }
            return seen.stream()
                    .filter(a -> a.rows().equals(target))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no recorded update held " + target))
                    .nanos();
        }
    }

    @Override
    public long await(PolicyRows target, long timeoutMs) throws InterruptedException {
        return await(c -> PolicyRows.of(c).equals(target), timeoutMs);
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.empty();
    }

    /** How many updates of address sets, port groups or switch ports arrived so far. */
    synchronized long version() {
        return version;
    }

    /** The address set, port group and ACL changes of the last update that changed any (one transaction's). */
    synchronized List<RowChange> lastPolicyChanges() {
        return lastPolicyChanges;
    }

    /** Address set and port group rows changed (inserted, updated, deleted) so far. */
    synchronized long changedRows() {
        return changedSets + changedGroups;
    }

    /**
     * Waits until {@code condition} holds over the cache, checking after each update that arrives; returns the
     * {@link System#nanoTime} at which the update that made it hold arrived.
     */
    synchronized long await(Predicate<MonitorCache> condition, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        long checked = -1;
        while (true) {
            if (updates != checked) {
                checked = updates;
                if (condition.test(cache)) {
                    return lastArrival;
                }
            }
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new IllegalStateException("NB never showed the expected change");
            }
            wait(left);
        }
    }

    /** Waits for any update after {@code since}; returns when the first one arrived. */
    long awaitUpdateAfter(long since, long timeoutMs) throws InterruptedException {
        return await(c -> version() > since, timeoutMs);
    }

    /** The uuid of the switch port named {@code name}. */
    static Optional<Uuid> port(MonitorCache cache, String name) {
        return cache.table(SWITCH_PORT).byName(name).stream().findFirst().map(Row::uuid);
    }

    /** Whether some port group holds {@code port}. */
    static boolean inSomePortGroup(MonitorCache cache, Uuid port) {
        return cache.table(PORT_GROUP).rows().stream()
                .anyMatch(r -> r.get("ports") instanceof Set<?> s && s.contains(port));
    }

    /** Whether some address set holds {@code ip}. */
    static boolean inSomeAddressSet(MonitorCache cache, String ip) {
        TableCache sets = cache.table(ADDRESS_SET);
        return sets.rows().stream().anyMatch(r -> r.get("addresses") instanceof Set<?> s && s.contains(ip));
    }

    @Override
    public void close() {
        cache.close();
        client.close();
    }
}
