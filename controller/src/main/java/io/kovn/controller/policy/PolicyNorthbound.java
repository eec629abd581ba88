package io.kovn.controller.policy;

import io.kovn.controller.OvsdbConnections;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.Meter;
import io.kovn.ovn.nb.MeterBand;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.DatabaseReconciler;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The policy controller's own connection to its zone's NB: a client, a monitor cache of the tables policies live in
 * (ACL, Port_Group, Address_Set, Meter, Meter_Band) plus the names of the logical switch ports (port group members),
 * and the ownership-diff reconciler over them. Its own connection keeps its write counters separate from the zone
 * controller's.
 */
public final class PolicyNorthbound implements AutoCloseable {
    /** The NB database name. */
    public static final String DATABASE = "OVN_Northbound";
    /**
     * What is monitored: the owned tables whole, switch ports by name only. (ovsdb-server tracks and encodes the
     * changes once for every client that asks exactly this.)
     */
    public static final List<TableMonitor> MONITORED = List.of(
            TableMonitor.all(Acl.TABLE_NAME),
            TableMonitor.all(PortGroup.TABLE_NAME),
            TableMonitor.all(AddressSet.TABLE_NAME),
            TableMonitor.all(Meter.TABLE_NAME),
            TableMonitor.all(MeterBand.TABLE_NAME),
            new TableMonitor(LogicalSwitchPort.TABLE_NAME, List.of(LogicalSwitchPort.NAME), List.of()));

    private final OvsdbClient client;
    private final MonitorCache cache;
    private final DatabaseReconciler reconciler;
    /** Bumped after every update that changed a switch port (or replaced the cache). */
    private final AtomicLong portChanges = new AtomicLong();
    /** The last {@link #switchPorts()} and the {@link #portChanges} count it was made at. */
    private record Ports(Map<String, Uuid> byName, long at) {}

    private volatile Ports ports;

    private PolicyNorthbound(OvsdbClient client, MonitorCache cache) {
        this.client = client;
        this.cache = cache;
        this.reconciler = new DatabaseReconciler(client, DATABASE, client.getSchema(DATABASE), CurrentState.of(cache));
        cache.addListener(update -> {
            if (update.resync()
                    || update.changes().stream().anyMatch(c -> c.table().equals(LogicalSwitchPort.TABLE_NAME))) {
                portChanges.incrementAndGet();
            }
        });
    }

    /** Connects (e.g. {@code unix:/run/ovn/ovnnb_db.sock}) and waits until the cache holds the server's rows. */
    public static PolicyNorthbound connect(String endpoint, Duration timeout) {
        OvsdbClient client = OvsdbConnections.builder(endpoint, timeout).connect();
        MonitorCache cache = null;
        try {
            cache = MonitorCache.start(client, DATABASE, MONITORED);
            cache.synced().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new PolicyNorthbound(client, cache);
        } catch (Exception e) {
            if (cache != null) {
                cache.close();
            }
            client.close();
            throw new IllegalStateException("cannot connect to the zone's NB " + endpoint, e);
        }
    }

    /** The monitor cache. */
    public MonitorCache cache() {
        return cache;
    }

    /** The diff reconciler over the cache. */
    public DatabaseReconciler reconciler() {
        return reconciler;
    }

    /**
     * Logical switch port name to uuid, as the NB holds them now (unmodifiable): the same map while no port changed, so
     * a reconcile after a relabel neither rebuilds nor compares the zone's ports.
     */
    public Map<String, Uuid> switchPorts() {
        // the listener bumps the count after an update is visible: a map built meanwhile is at
        // worst newer than its count, and is built again on the next call
        long at = portChanges.get();
        Ports known = ports;
        if (known != null && known.at() == at) {
            return known.byName();
        }
        Map<String, Uuid> out = new HashMap<>();
        for (Row r : cache.table(LogicalSwitchPort.TABLE_NAME).rows()) {
            if (r.get(LogicalSwitchPort.NAME) instanceof String name) {
                out.put(name, r.uuid());
            }
        }
        Ports made = new Ports(Collections.unmodifiableMap(out), at);
        ports = made;
        return made.byName();
    }

    /** Whether any meter named {@code name} exists, whoever made it. */
    public boolean hasMeter(String name) {
        return !cache.table(Meter.TABLE_NAME).byName(name).isEmpty();
    }

    /** Transactions and operations this connection sent. */
    public TrafficCounters counters() {
        return client.counters();
    }

    @Override
    public void close() {
        cache.close();
        client.close();
    }
}
