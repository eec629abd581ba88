package io.kovn.controller.zone;

import io.kovn.controller.OvsdbDatabase;
import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.DatabaseReconciler;
import io.kovn.ovsdb.ops.Condition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One zone's NB and SB connections: clients, monitor caches of the tables the zone owns rows in (and of whatever else
 * the process's other controllers read, e.g. the policy tables: one connection and cache per database and process), and
 * the diff reconcilers over them. Closing closes caches and clients.
 */
public final class ZoneDatabases implements AutoCloseable {
    public static final String NB = "OVN_Northbound";
    public static final String SB = "OVN_Southbound";
    /** What the zone's own reconciles read of the NB. */
    static final List<TableMonitor> ZONE_NB = merged(Stream.of(
                    ZoneModel.NB_MONITORED.stream().map(TableMonitor::all),
                    IsolationModel.MONITORS.stream(),
                    NetworkConnectReconciler.MONITORS.stream())
            .flatMap(x -> x)
            .toList());
    /** The same by table. */
    private static final Map<String, TableMonitor> ZONE_NB_TABLES =
            ZONE_NB.stream().collect(Collectors.toUnmodifiableMap(TableMonitor::table, m -> m));

    private final OvsdbDatabase nb;
    private final OvsdbDatabase sb;

    private ZoneDatabases(OvsdbDatabase nb, OvsdbDatabase sb) {
        this.nb = nb;
        this.sb = sb;
    }

    /**
     * Connects to the zone's NB and SB (e.g. {@code unix:/run/ovn/ovnnb_db.sock}) and waits until both caches hold the
     * servers' current rows.
     */
    public static ZoneDatabases connect(String nbEndpoint, String sbEndpoint, Duration timeout) {
        return connect(nbEndpoint, sbEndpoint, timeout, List.of());
    }

    /**
     * The same, the NB cache also holding {@code moreNb} for the process's other controllers (the policy controller's
     * tables).
     */
    public static ZoneDatabases connect(
            String nbEndpoint, String sbEndpoint, Duration timeout, List<TableMonitor> moreNb) {
        OvsdbDatabase nb = null;
        OvsdbDatabase sb = null;
        try {
            nb = OvsdbDatabase.open(
                    nbEndpoint,
                    NB,
                    merged(Stream.concat(ZONE_NB.stream(), moreNb.stream()).toList()),
                    timeout);
            sb = OvsdbDatabase.open(
                    sbEndpoint,
                    SB,
                    ZoneModel.SB_MONITORED.stream().map(TableMonitor::all).toList(),
                    timeout);
            nb.awaitSynced(timeout);
            sb.awaitSynced(timeout);
            return new ZoneDatabases(nb, sb);
        } catch (RuntimeException e) {
            for (AutoCloseable c : new AutoCloseable[] {sb, nb}) {
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

    /**
     * One monitor per table, holding every row and column any of {@code monitors} asks for: the clauses of several
     * owners' conditional monitors of a table are alternatives, a monitor of the whole table holds them all, and the
     * columns are the union (all of them if any asks for all).
     */
    static List<TableMonitor> merged(List<TableMonitor> monitors) {
        Map<String, TableMonitor> out = new LinkedHashMap<>();
        for (TableMonitor m : monitors) {
            out.merge(m.table(), m, (a, b) -> {
                List<String> columns = a.columns().isEmpty() || b.columns().isEmpty()
                        ? List.of()
                        : Stream.concat(a.columns().stream(), b.columns().stream())
                                .distinct()
                                .toList();
                List<Condition> where = a.where().isEmpty() || b.where().isEmpty()
                        ? List.of()
                        : Stream.concat(a.where().stream(), b.where().stream()).toList();
                return new TableMonitor(a.table(), columns, where);
            });
        }
        return List.copyOf(out.values());
    }

    /**
     * The part of an NB update that the zone's own monitors would have seen: the policy controller's rows, held in the
     * same cache, are no concern of the zone's keys.
     */
    static CacheUpdate forZone(CacheUpdate update) {
        List<RowChange> zone = new ArrayList<>(update.changes().size());
        for (RowChange c : update.changes()) {
            TableMonitor m = ZONE_NB_TABLES.get(c.table());
            if (m != null && c.rows().stream().anyMatch(m::matches)) {
                zone.add(c);
            }
        }
        return zone.size() == update.changes().size() ? update : new CacheUpdate(zone, update.resync());
    }

    /** The NB connection, shared with the process's other controllers. */
    public OvsdbDatabase nb() {
        return nb;
    }

    public DatabaseReconciler northbound() {
        return nb.reconciler();
    }

    public DatabaseReconciler southbound() {
        return sb.reconciler();
    }

    /** The NB rows as the diff sees them (keyed look-ups through the cache's index). */
    public CurrentState nbState() {
        return nb.state();
    }

    /** The SB rows as the diff sees them. */
    public CurrentState sbState() {
        return sb.state();
    }

    public MonitorCache nbCache() {
        return nb.cache();
    }

    public MonitorCache sbCache() {
        return sb.cache();
    }

    /** Transactions and operations sent to NB. */
    public TrafficCounters nbCounters() {
        return nb.counters();
    }

    /** Transactions and operations sent to SB. */
    public TrafficCounters sbCounters() {
        return sb.counters();
    }

    @Override
    public void close() {
        sb.close();
        nb.close();
    }
}
