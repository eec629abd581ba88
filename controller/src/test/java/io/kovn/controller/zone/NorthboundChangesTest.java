package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which keys an NB update concerns: updates in, keys out. */
class NorthboundChangesTest {
    static final Uuid SWITCH = uuid(1);
    static final Uuid POD_PORT = uuid(2);
    static final Uuid OLD_POD_PORT = uuid(3);
    static final Uuid STOR = uuid(4);
    static final ObjectKey WEB = new ObjectKey("default", "web");

    static Uuid uuid(int n) {
        return Uuid.of(String.format("00000000-0000-0000-0000-%012d", n));
    }

    static Map<String, String> ids(String type, String name, String id) {
        return Map.of(
                "k8s.ovn.org/owner-controller",
                "default-network-controller",
                "k8s.ovn.org/owner-type",
                type,
                "k8s.ovn.org/name",
                name,
                "k8s.ovn.org/id",
                id);
    }

    static Row podPort(Uuid uuid, String pod) {
        return new Row(
                uuid,
                Map.of(
                        "name",
                        pod.replace('/', '_'),
                        "external_ids",
                        ids("Pod", pod, "default-network-controller:Pod:" + pod)));
    }

    static Row nodeSwitch(Set<Uuid> ports) {
        return new Row(
                SWITCH,
                Map.of(
                        "name",
                        "node-a",
                        "ports",
                        ports,
                        "external_ids",
                        ids(
                                "Node",
                                "node-a",
                                ZoneTopology.nodeId("node-a", "switch").primaryId())));
    }

    static NorthboundChanges of(RowChange... changes) {
        // OLD_POD_PORT is a pod's port already in the cache
        return NorthboundChanges.of(new CacheUpdate(List.of(changes), false), "node-a", OLD_POD_PORT::equals);
    }

    @Test
    void aPodsPortInsertAndItsAttachConcernThatPodOnly() {
        assertThat(of(
                        new RowChange.Inserted("Logical_Switch_Port", podPort(POD_PORT, "default/web")),
                        new RowChange.Updated(
                                "Logical_Switch", nodeSwitch(Set.of(STOR)), nodeSwitch(Set.of(STOR, POD_PORT)))))
                .isEqualTo(new NorthboundChanges(false, false, Set.of(WEB)));
    }

    @Test
    void aPodsPortDeletedWithItsDetachConcernsThatPodOnly() {
        assertThat(of(
                        new RowChange.Deleted("Logical_Switch_Port", podPort(POD_PORT, "default/web")),
                        new RowChange.Updated(
                                "Logical_Switch", nodeSwitch(Set.of(STOR, POD_PORT)), nodeSwitch(Set.of(STOR)))))
                .isEqualTo(new NorthboundChanges(false, false, Set.of(WEB)));
        // a detach alone (the port row is still cached) is a pod's business too
        assertThat(of(new RowChange.Updated("Logical_Switch", nodeSwitch(Set.of(OLD_POD_PORT)), nodeSwitch(Set.of()))))
                .isEqualTo(new NorthboundChanges(false, false, Set.of()));
    }

    @Test
    void theSwitchLosingATopologyPortOrChangingOtherwiseConcernsTheTopology() {
        assertThat(of(new RowChange.Updated("Logical_Switch", nodeSwitch(Set.of(STOR)), nodeSwitch(Set.of())))
                        .topology())
                .isTrue();
        Row renamed = new Row(
                SWITCH,
                Map.of(
                        "name",
                        "x",
                        "ports",
                        Set.of(STOR),
                        "external_ids",
                        nodeSwitch(Set.of()).get("external_ids")));
        assertThat(of(new RowChange.Updated("Logical_Switch", nodeSwitch(Set.of(STOR)), renamed))
                        .topology())
                .isTrue();
        Row topologyPort = new Row(
                STOR,
                Map.of(
                        "name",
                        "stor-node-a",
                        "external_ids",
                        ids("Node", "node-a", "default-network-controller:Node:node-a:stor")));
        assertThat(of(new RowChange.Deleted("Logical_Switch_Port", topologyPort)))
                .isEqualTo(new NorthboundChanges(true, false, Set.of()));
        assertThat(of(new RowChange.Deleted("Logical_Router_Static_Route", new Row(uuid(9), Map.of())))
                        .topology())
                .isTrue();
    }

    @Test
    void aNewNodeSwitchConcernsEveryPodAndAResyncEverything() {
        assertThat(of(new RowChange.Inserted("Logical_Switch", nodeSwitch(Set.of()))))
                .isEqualTo(new NorthboundChanges(true, true, Set.of()));
        Row transit = new Row(
                uuid(7),
                Map.of(
                        "name",
                        "transit_switch",
                        "external_ids",
                        ids("Cluster", "transit_switch", "default-network-controller:Cluster:transit_switch")));
        assertThat(of(new RowChange.Inserted("Logical_Switch", transit)))
                .isEqualTo(new NorthboundChanges(true, false, Set.of()));
        assertThat(NorthboundChanges.of(new CacheUpdate(List.of(), true), "node-a", u -> false))
                .isEqualTo(new NorthboundChanges(true, true, Set.of()));
    }

    @Test
    void loadBalancersTheirGroupsAndGroupAttachmentsAreTheServiceControllersNotTheTopologys() {
        Uuid lb = uuid(20);
        Uuid group = uuid(21);
        Row lbRow = new Row(
                lb,
                Map.of(
                        "name",
                        "Service_default/web_TCP_cluster",
                        "external_ids",
                        ids("Service", "default/web", "default-network-controller:Service:default/web:TCP_cluster")));
        Row groupRow = new Row(group, Map.of("name", "clusterLBGroup", "load_balancer", Set.of(lb)));
        Row withGroup = new Row(
                SWITCH,
                Map.of(
                        "name",
                        "node-a",
                        "ports",
                        Set.of(STOR),
                        "load_balancer_group",
                        Set.of(group),
                        "external_ids",
                        nodeSwitch(Set.of()).get("external_ids")));
        Row router = new Row(uuid(22), Map.of("name", "ovn_cluster_router", "load_balancer_group", Set.of()));
        Row routerWithGroup =
                new Row(uuid(22), Map.of("name", "ovn_cluster_router", "load_balancer_group", Set.of(group)));

        assertThat(of(
                        new RowChange.Inserted("Load_Balancer", lbRow),
                        new RowChange.Inserted("Load_Balancer_Group", groupRow),
                        new RowChange.Updated("Logical_Switch", nodeSwitch(Set.of(STOR)), withGroup),
                        new RowChange.Updated("Logical_Router", router, routerWithGroup)))
                .isEqualTo(new NorthboundChanges(false, false, Set.of()));
        // anything else of the router is still the topology's
        Row renamed = new Row(uuid(22), Map.of("name", "x", "load_balancer_group", Set.of(group)));
        assertThat(of(new RowChange.Updated("Logical_Router", routerWithGroup, renamed))
                        .topology())
                .isTrue();
    }
}
