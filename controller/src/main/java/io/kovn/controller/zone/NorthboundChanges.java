package io.kovn.controller.zone;

import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Which of a zone's keys one NB update concerns, so that drift is repaired without a restart while a pod's own port
 * write does not re-plan the whole zone. Pure.
 *
 * <ul>
 *   <li>a change to a pod's switch port: that pod's key;
 *   <li>the node switch's {@code ports} gaining or losing pods' ports only: nothing more (the topology keeps other
 *       owners' ports; the pods' keys cover theirs);
 *   <li>the node switch inserted (first start, or re-made after someone deleted it): every pod, as their ports attach
 *       to it;
 *   <li>any other change, and a resync after a reconnect: the topology key (a resync: every pod too).
 * </ul>
 *
 * @param topology whether the topology key is concerned
 * @param allPods whether every pod on the node is
 * @param pods the pods concerned
 */
record NorthboundChanges(boolean topology, boolean allPods, Set<ObjectKey> pods) {
    NorthboundChanges {
        pods = Set.copyOf(pods);
    }

    /**
     * @param update the applied update
     * @param zone the zone's node
     * @param podPortInCache whether the cache's switch port with this uuid is a pod's
     */
    static NorthboundChanges of(CacheUpdate update, String zone, Predicate<Uuid> podPortInCache) {
        boolean topology = update.resync();
        boolean allPods = update.resync();
        Set<ObjectKey> pods = new TreeSet<>();
        Set<Uuid> podPorts = new HashSet<>();
        for (RowChange c : update.forTable(LogicalSwitchPort.TABLE_NAME)) {
            for (Row r : c.rows()) {
                var pod = PodPortModel.podOf(r);
                pod.ifPresent(pods::add);
                if (pod.isPresent()) {
                    podPorts.add(r.uuid());
                } else {
                    topology = true;
                }
            }
        }
        Predicate<Object> podPort =
                u -> u instanceof Uuid uuid && (podPorts.contains(uuid) || podPortInCache.test(uuid));
        String nodeSwitch = ZoneTopology.nodeId(zone, "switch").primaryId();
        for (RowChange c : update.changes()) {
            switch (c) {
                case RowChange.Updated u
                when u.table().equals(LogicalSwitch.TABLE_NAME) -> {
                    if (!onlyPortsChanged(u.old(), u.row(), podPort)) {
                        topology = true;
                    }
                }
                case RowChange.Inserted i
                when i.table().equals(LogicalSwitch.TABLE_NAME) -> {
                    topology = true;
                    allPods |= nodeSwitch.equals(
                            i.row().stringMap(LogicalSwitch.EXTERNAL_IDS).get(ObjectId.ID_KEY));
                }
                // the load balancer groups of a router are the service controller's
                case RowChange.Updated u
                when u.table().equals(LogicalRouter.TABLE_NAME) ->
                    topology |= !sameBut(u.old(), u.row(), LogicalRouter.LOAD_BALANCER_GROUP);
                default ->
                    topology |= !c.table().equals(LogicalSwitchPort.TABLE_NAME) && !SERVICE_TABLES.contains(c.table());
            }
        }
        return new NorthboundChanges(topology, allPods, pods);
    }

    /** Tables of the service controller: no concern of the zone's keys. */
    private static final Set<String> SERVICE_TABLES = Set.of("Load_Balancer", "Load_Balancer_Group");

    private static boolean sameBut(Row old, Row now, String column) {
        Map<String, Object> before = new HashMap<>(old.columns());
        Map<String, Object> after = new HashMap<>(now.columns());
        before.remove(column);
        after.remove(column);
        return before.equals(after);
    }

    /** Whether only the {@code ports} column differs, and only by elements that are pods' ports. */
    private static boolean onlyPortsChanged(Row old, Row now, Predicate<Object> podPort) {
        Map<String, Object> before = new HashMap<>(old.columns());
        Map<String, Object> after = new HashMap<>(now.columns());
        Object portsBefore = before.remove(LogicalSwitch.PORTS);
        Object portsAfter = after.remove(LogicalSwitch.PORTS);
        before.remove(LogicalSwitch.LOAD_BALANCER_GROUP); // the service controller's
        after.remove(LogicalSwitch.LOAD_BALANCER_GROUP);
        if (!before.equals(after)) {
            return false;
        }
        Set<Object> changed = new HashSet<>(asSet(portsBefore));
        Set<Object> added = new HashSet<>(asSet(portsAfter));
        added.removeAll(asSet(portsBefore));
        changed.removeAll(asSet(portsAfter));
        changed.addAll(added);
        return changed.stream().allMatch(podPort);
    }

    private static Set<?> asSet(Object v) {
        return v instanceof Set<?> s ? s : v == null ? Set.of() : Set.of(v);
    }
}
