package io.kovn.bench;

import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A monitor of every table of a Northbound database, in the benchmark's JVM: when the first and the last update
 * arrived, and when the database became stable (no update for a quiet period, with a condition on its contents met).
 */
final class NorthboundWatch implements AutoCloseable {
    static final String NB = "OVN_Northbound";

    private final OvsdbClient client;
    private final MonitorCache cache;
    private long first;
    private long last;
    private long updates;

    private NorthboundWatch(OvsdbClient client, MonitorCache cache) {
        this.client = client;
        this.cache = cache;
        cache.addListener(update -> arrived());
    }

    static NorthboundWatch connect(String endpoint) throws Exception {
        OvsdbClient client = OvsdbClient.builder()
                .endpoint(endpoint)
                .timeout(Duration.ofMinutes(2))
                .connect();
        List<TableMonitor> tables = client.getSchema(NB).tables().keySet().stream()
                .map(TableMonitor::all)
                .toList();
        MonitorCache cache = MonitorCache.start(client, NB, tables);
        cache.synced().get(1, TimeUnit.MINUTES);
        return new NorthboundWatch(client, cache);
    }

    private synchronized void arrived() {
        long now = System.nanoTime();
        if (updates++ == 0) {
            first = now;
        }
        last = now;
        notifyAll();
    }

    /** The connection the watch monitors over. */
    OvsdbClient client() {
        return client;
    }

    /** The rows as last updated. */
    MonitorCache cache() {
        return cache;
    }

    /** When the first update arrived (System.nanoTime), 0 if none has. */
    synchronized long first() {
        return first;
    }

    synchronized long updates() {
        return updates;
    }

    /** Forgets the updates so far: {@link #first} is the next one's. */
    synchronized void reset() {
        updates = 0;
        first = 0;
        last = 0;
    }

    /**
     * Waits until {@code done} holds and no update has arrived for {@code quietMs}; returns when the last update
     * arrived (System.nanoTime), 0 if none has.
     */
    synchronized long awaitStable(Predicate<MonitorCache> done, long quietMs, long timeoutMs)
            throws InterruptedException {
        return awaitStable(done, 0, quietMs, timeoutMs);
    }

    /**
     * As {@link #awaitStable(Predicate, long, long)}, after at least {@code minUpdates} updates since the last reset.
     */
    synchronized long awaitStable(Predicate<MonitorCache> done, int minUpdates, long quietMs, long timeoutMs)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long now = System.nanoTime();
            if (now > deadline) {
                throw new IllegalStateException(
                        "the NB was not stable within " + timeoutMs + " ms (" + updates + " updates)");
            }
            long quietFor = now - Math.max(last, 1);
            if (updates >= minUpdates
                    && done.test(cache)
                    && (updates == 0 || quietFor >= TimeUnit.MILLISECONDS.toNanos(quietMs))) {
                return last;
            }
            wait(Math.max(1, quietMs / 10));
        }
    }

    /** Rows of {@code table} matching {@code filter}. */
    long count(String table, Predicate<Row> filter) {
        return cache.table(table).rows().stream().filter(filter).count();
    }

    @Override
    public void close() {
        cache.close();
        client.close();
    }
}
