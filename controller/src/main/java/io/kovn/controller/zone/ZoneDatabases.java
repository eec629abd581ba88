package io.kovn.controller.zone;

import io.kovn.controller.OvsdbConnections;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.DatabaseReconciler;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One zone's NB and SB connections: clients, monitor caches of the tables the zone owns rows in, and the diff
 * reconcilers over them. Closing closes caches and clients.
 */
public final class ZoneDatabases implements AutoCloseable {
    public static final String NB = "OVN_Northbound";
    public static final String SB = "OVN_Southbound";

    private final OvsdbClient nbClient;
    private final OvsdbClient sbClient;
    private final MonitorCache nbCache;
    private final MonitorCache sbCache;
    private final DatabaseReconciler northbound;
    private final DatabaseReconciler southbound;

    private ZoneDatabases(OvsdbClient nbClient, OvsdbClient sbClient, MonitorCache nbCache, MonitorCache sbCache) {
        this.nbClient = nbClient;
        this.sbClient = sbClient;
        this.nbCache = nbCache;
        this.sbCache = sbCache;
        this.northbound = new DatabaseReconciler(nbClient, NB, nbClient.getSchema(NB), CurrentState.of(nbCache));
        this.southbound = new DatabaseReconciler(sbClient, SB, sbClient.getSchema(SB), CurrentState.of(sbCache));
    }

    /**
     * Connects to the zone's NB and SB (e.g. {@code unix:/run/ovn/ovnnb_db.sock}) and waits until both caches hold the
     * servers' current rows.
     */
    public static ZoneDatabases connect(String nbEndpoint, String sbEndpoint, Duration timeout) {
        OvsdbClient nb = OvsdbConnections.builder(nbEndpoint, timeout).connect();
        OvsdbClient sb = null;
        MonitorCache nbCache = null;
        MonitorCache sbCache = null;
        try {
            sb = OvsdbConnections.builder(sbEndpoint, timeout).connect();
            nbCache = MonitorCache.start(
                    nb,
                    NB,
                    merged(Stream.of(
                                    ZoneModel.NB_MONITORED.stream().map(TableMonitor::all),
                                    IsolationModel.MONITORS.stream(),
                                    NetworkConnectReconciler.MONITORS.stream())
                            .flatMap(x -> x)
                            .toList()));
            sbCache = MonitorCache.start(
                    sb,
                    SB,
                    ZoneModel.SB_MONITORED.stream().map(TableMonitor::all).toList());
            nbCache.synced().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            sbCache.synced().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new ZoneDatabases(nb, sb, nbCache, sbCache);
        } catch (Exception e) {
            for (AutoCloseable c : new AutoCloseable[] {sbCache, nbCache, sb, nb}) {
                if (c != null) {
                    try {
                        c.close();
                    } catch (Exception ignored) {
                        // already failing
                    }
                }
            }
            throw new IllegalStateException("cannot connect zone databases " + nbEndpoint + ", " + sbEndpoint, e);
        }
    }

    /** One monitor per table: the clauses of several owners' conditional monitors of a table are alternatives. */
    static List<TableMonitor> merged(List<TableMonitor> monitors) {
        Map<String, TableMonitor> out = new LinkedHashMap<>();
        for (TableMonitor m : monitors) {
            out.merge(m.table(), m, (a, b) -> {
                if (a.where().isEmpty() || b.where().isEmpty() || !a.columns().equals(b.columns())) {
                    throw new IllegalArgumentException("cannot merge monitors of " + a.table());
                }
                return new TableMonitor(
                        a.table(),
                        a.columns(),
                        Stream.concat(a.where().stream(), b.where().stream()).toList());
            });
        }
        return List.copyOf(out.values());
    }

    public DatabaseReconciler northbound() {
        return northbound;
    }

    public DatabaseReconciler southbound() {
        return southbound;
    }

    /** The NB rows as the diff sees them (keyed look-ups through the cache's index). */
    public CurrentState nbState() {
        return CurrentState.of(nbCache);
    }

    /** The SB rows as the diff sees them. */
    public CurrentState sbState() {
        return CurrentState.of(sbCache);
    }

    public MonitorCache nbCache() {
        return nbCache;
    }

    public MonitorCache sbCache() {
        return sbCache;
    }

    /** Transactions and operations sent to NB. */
    public TrafficCounters nbCounters() {
        return nbClient.counters();
    }

    /** Transactions and operations sent to SB. */
    public TrafficCounters sbCounters() {
        return sbClient.counters();
    }

    @Override
    public void close() {
        sbCache.close();
        nbCache.close();
        sbClient.close();
        nbClient.close();
    }
}
