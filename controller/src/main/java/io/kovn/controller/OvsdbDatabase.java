package io.kovn.controller;

import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.DatabaseReconciler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One connection to one OVSDB database: the client, the monitor cache of every table the process's controllers read,
 * and the ownership-diff reconciler over that cache. The controllers of one process share it (the zone, policy and
 * service controllers read and write one zone's NB through one connection and one cache); whoever opened it closes it.
 */
public final class OvsdbDatabase implements AutoCloseable {
    private final String endpoint;
    private final OvsdbClient client;
    private final MonitorCache cache;
    private final DatabaseReconciler reconciler;

    private OvsdbDatabase(String endpoint, String database, OvsdbClient client, MonitorCache cache) {
        this.endpoint = endpoint;
        this.client = client;
        this.cache = cache;
        this.reconciler = new DatabaseReconciler(client, database, client.getSchema(database), CurrentState.of(cache));
        // before every controller's listener: a controller woken by an update plans with what was proven carried over
        cache.addListener(reconciler::observe);
    }

    /**
     * Connects (e.g. {@code unix:/run/ovn/ovnnb_db.sock}) and starts monitoring; {@link #awaitSynced} waits for the
     * server's rows, so that several databases can sync at once.
     */
    public static OvsdbDatabase open(String endpoint, String database, List<TableMonitor> monitors, Duration timeout) {
        OvsdbClient client = OvsdbConnections.builder(endpoint, timeout).connect();
        try {
            return new OvsdbDatabase(endpoint, database, client, MonitorCache.start(client, database, monitors));
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** {@link #open} and {@link #awaitSynced}: the cache holds the server's rows when this returns. */
    public static OvsdbDatabase connect(
            String endpoint, String database, List<TableMonitor> monitors, Duration timeout) {
        OvsdbDatabase db = open(endpoint, database, monitors, timeout);
        try {
            db.awaitSynced(timeout);
            return db;
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** Waits until the cache holds the server's current rows. */
    public void awaitSynced(Duration timeout) {
        try {
            cache.synced().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while syncing " + endpoint, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot monitor " + endpoint + ": " + e, e);
        }
    }

    /** The monitor cache. */
    public MonitorCache cache() {
        return cache;
    }

    /** The rows as the diff sees them (keyed look-ups through the cache's index). */
    public CurrentState state() {
        return CurrentState.of(cache);
    }

    /** The diff reconciler over the cache. */
    public DatabaseReconciler reconciler() {
        return reconciler;
    }

    /** Transactions and operations sent through this connection. */
    public TrafficCounters counters() {
        return client.counters();
    }

    @Override
    public void close() {
        cache.close();
        client.close();
    }
}
