package io.kovn.controller.policy;

import io.kovn.controller.OvsdbDatabase;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.Meter;
import io.kovn.ovn.nb.MeterBand;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.cache.CacheListener;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.DatabaseReconciler;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The policy controller's view of its zone's NB, over the process's one connection and monitor cache
 * ({@link OvsdbDatabase}, shared with the zone and service controllers): the tables policies live in, the diff
 * reconciler, and the logical switch ports by name (port group members). Closing it stops listening; the connection is
 * closed by whoever opened it.
 */
final class PolicyTables implements AutoCloseable {
    /**
     * What the policy controller reads: the owned tables whole, switch ports' names. (A process that runs it monitors
     * these on its NB connection besides what its other controllers read.)
     */
    static final List<TableMonitor> MONITORED = List.of(
            TableMonitor.all(Acl.TABLE_NAME),
            TableMonitor.all(PortGroup.TABLE_NAME),
            TableMonitor.all(AddressSet.TABLE_NAME),
            TableMonitor.all(Meter.TABLE_NAME),
            TableMonitor.all(MeterBand.TABLE_NAME),
            new TableMonitor(LogicalSwitchPort.TABLE_NAME, List.of(LogicalSwitchPort.NAME), List.of()));

    private final OvsdbDatabase nb;
    /** Bumped after every update that changed a switch port (or replaced the cache). */
    private final AtomicLong portChanges = new AtomicLong();

    private final CacheListener portListener;
    /** The last {@link #switchPorts()} and the {@link #portChanges} count it was made at. */
    private record Ports(Map<String, Uuid> byName, long at) {}

    private volatile Ports ports;

    PolicyTables(OvsdbDatabase nb) {
        this.nb = nb;
        this.portListener = update -> {
            if (update.resync()
                    || update.changes().stream().anyMatch(c -> c.table().equals(LogicalSwitchPort.TABLE_NAME))) {
                portChanges.incrementAndGet();
            }
        };
        nb.cache().addListener(portListener);
    }

    /** The connection. */
    OvsdbDatabase database() {
        return nb;
    }

    /** The monitor cache. */
    MonitorCache cache() {
        return nb.cache();
    }

    /** The diff reconciler over the cache. */
    DatabaseReconciler reconciler() {
        return nb.reconciler();
    }

    /**
     * Logical switch port name to uuid, as the NB holds them now (unmodifiable): the same map while no port changed, so
     * a reconcile after a relabel neither rebuilds nor compares the zone's ports.
     */
    Map<String, Uuid> switchPorts() {
        // the listener bumps the count after an update is visible: a map built meanwhile is at
        // worst newer than its count, and is built again on the next call
        long at = portChanges.get();
        Ports known = ports;
        if (known != null && known.at() == at) {
            return known.byName();
        }
        Map<String, Uuid> out = new HashMap<>();
        for (Row r : nb.cache().table(LogicalSwitchPort.TABLE_NAME).rows()) {
            if (r.get(LogicalSwitchPort.NAME) instanceof String name) {
                out.put(name, r.uuid());
            }
        }
        Ports made = new Ports(Collections.unmodifiableMap(out), at);
        ports = made;
        return made.byName();
    }

    /** Whether any meter named {@code name} exists, whoever made it. */
    boolean hasMeter(String name) {
        return !nb.cache().table(Meter.TABLE_NAME).byName(name).isEmpty();
    }

    @Override
    public void close() {
        nb.cache().removeListener(portListener);
    }
}
