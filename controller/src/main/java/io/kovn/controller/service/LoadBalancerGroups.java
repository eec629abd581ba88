package io.kovn.controller.service;

import io.kovn.ovn.nb.LoadBalancerGroup;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovsdb.cache.DatabaseCache;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The zone's three load balancer groups, by the reference's names, and where they are attached: the node switch holds
 * {@code clusterLBGroup} and {@code clusterSwitchLBGroup}, {@code ovn_cluster_router} holds {@code clusterLBGroup}, and
 * {@code GR_<node>}, once it exists, {@code clusterLBGroup} and {@code clusterRouterLBGroup}.
 * {@code Load_Balancer_Group} has no external_ids, so kovn's ownership diff cannot own it: groups missing by name are
 * inserted, never deleted, and attached by {@code mutate insert}; nothing else of those switches and routers is touched
 * (the topology's diff leaves their {@code load_balancer_group} alone). Pure: the cache in, operations out; converged,
 * no operation.
 */
final class LoadBalancerGroups {
    static final List<String> NAMES = List.of(
            ServiceModel.CLUSTER_LB_GROUP, ServiceModel.CLUSTER_SWITCH_LB_GROUP, ServiceModel.CLUSTER_ROUTER_LB_GROUP);
    static final String CLUSTER_ROUTER = "ovn_cluster_router";

    private LoadBalancerGroups() {}

    /** The gateway router of a node, as the reference names it. */
    static String gatewayRouter(String node) {
        return "GR_" + node;
    }

    /** The groups' uuids by name (the lowest uuid when there are two of a name). */
    static Map<String, Uuid> uuids(DatabaseCache nb) {
        Map<String, Uuid> out = new HashMap<>();
        for (String name : NAMES) {
            byName(nb, LoadBalancerGroup.TABLE_NAME, name).ifPresent(r -> out.put(name, r.uuid()));
        }
        return out;
    }

    /** The operations that make the groups and attach them; an empty plan when all is in place. */
    static Plan plan(String node, DatabaseCache nb) {
        List<Operation> ops = new ArrayList<>();
        Map<String, Object> group = new LinkedHashMap<>();
        for (String name : NAMES) {
            Optional<Row> row = byName(nb, LoadBalancerGroup.TABLE_NAME, name);
            if (row.isPresent()) {
                group.put(name, row.get().uuid());
            } else {
                String uuidName = "group_" + name;
                ops.add(new Operation.Insert(
                        LoadBalancerGroup.TABLE_NAME, Map.of(LoadBalancerGroup.NAME, name), uuidName));
                group.put(name, new NamedUuid(uuidName));
            }
        }
        attach(
                nb,
                LogicalSwitch.TABLE_NAME,
                node,
                List.of(group.get(ServiceModel.CLUSTER_LB_GROUP), group.get(ServiceModel.CLUSTER_SWITCH_LB_GROUP)),
                LogicalSwitch.LOAD_BALANCER_GROUP,
                ops);
        attach(
                nb,
                LogicalRouter.TABLE_NAME,
                CLUSTER_ROUTER,
                List.of(group.get(ServiceModel.CLUSTER_LB_GROUP)),
                LogicalRouter.LOAD_BALANCER_GROUP,
                ops);
        attach(
                nb,
                LogicalRouter.TABLE_NAME,
                gatewayRouter(node),
                List.of(group.get(ServiceModel.CLUSTER_LB_GROUP), group.get(ServiceModel.CLUSTER_ROUTER_LB_GROUP)),
                LogicalRouter.LOAD_BALANCER_GROUP,
                ops);
        return Plan.of(ops);
    }

    private static void attach(
            DatabaseCache nb, String table, String name, List<Object> groups, String column, List<Operation> ops) {
        Optional<Row> parent = byName(nb, table, name);
        if (parent.isEmpty()) {
            return; // not made yet: its insert re-queues the groups' key
        }
        Object have = parent.get().get(column);
        Set<?> held = have instanceof Set<?> s ? s : have == null ? Set.of() : Set.of(have);
        List<Object> missing = groups.stream().filter(g -> !held.contains(g)).toList();
        if (!missing.isEmpty()) {
            ops.add(Ops.mutate(table, parent.get().uuid(), Mutation.insert(column, Set.copyOf(missing))));
        }
    }

    private static Optional<Row> byName(DatabaseCache nb, String table, String name) {
        return nb.table(table).byName(name).stream().min(Comparator.comparing(Row::uuid));
    }
}
