package io.kovn.controller.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Attachment;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A service's load balancers as scoped desired rows attached to their groups. */
class ServiceRowsTest {
    static final Uuid CLUSTER = Uuid.of("00000000-0000-0000-0000-000000000001");
    static final Uuid SWITCH = Uuid.of("00000000-0000-0000-0000-000000000002");
    static final Uuid ROUTER = Uuid.of("00000000-0000-0000-0000-000000000003");
    static final Map<String, Uuid> GROUPS =
            Map.of("clusterLBGroup", CLUSTER, "clusterSwitchLBGroup", SWITCH, "clusterRouterLBGroup", ROUTER);

    static List<ServiceLoadBalancer> nodePort() {
        return ServiceModel.desired(
                        Services.nodePort("np", "10.96.0.14", "Cluster", Services.port("", "TCP", 80, 8080, 30080)),
                        List.of(),
                        ServiceModelTest.ZONE)
                .loadBalancers();
    }

    @Test
    void eachLoadBalancerIsScopedToItsServiceAndAttachedToItsGroups() {
        DesiredState d =
                ServiceRows.desired("default/np", "node-a", nodePort(), GROUPS).orElseThrow();
        DesiredState.TableState lbs = d.tables().get("Load_Balancer");

        assertThat(d.tables()).containsOnlyKeys("Load_Balancer");
        assertThat(lbs.scope()).contains(ServiceModel.possibleIds("default/np", "node-a"));
        Desired cluster = lbs.rows().get("default-network-controller:Service:default/np:TCP_cluster");
        assertThat(cluster.attachments())
                .containsExactly(new Attachment("Load_Balancer_Group", CLUSTER, "load_balancer"));
        assertThat(cluster.columns())
                .containsEntry("name", "Service_default/np_TCP_cluster")
                .containsEntry("protocol", Set.of("tcp"))
                .containsEntry("vips", Map.of("10.96.0.14:80", ""));
        Desired node = lbs.rows().get("default-network-controller:Service:default/np:TCP_node_router+switch_node-a");
        assertThat(node.attachments())
                .containsExactlyInAnyOrder(
                        new Attachment("Load_Balancer_Group", SWITCH, "load_balancer"),
                        new Attachment("Load_Balancer_Group", ROUTER, "load_balancer"));
        assertThat(ServiceRows.owner("default/np")
                        .owns((Map<?, ?>) cluster.columns().get("external_ids")))
                .isTrue();
        assertThat(ServiceRows.owner("default/other")
                        .owns((Map<?, ?>) cluster.columns().get("external_ids")))
                .isFalse();
    }

    @Test
    void withoutItsGroupsAServiceWaitsAndWithoutRowsItsScopeStillHoldsItsStaleOnes() {
        assertThat(ServiceRows.desired("default/np", "node-a", nodePort(), Map.of("clusterLBGroup", CLUSTER)))
                .isEmpty();
        DesiredState gone =
                ServiceRows.desired("default/np", "node-a", List.of(), Map.of()).orElseThrow();
        assertThat(gone.tables().get("Load_Balancer").rows()).isEmpty();
        assertThat(gone.tables().get("Load_Balancer").scope())
                .hasValueSatisfying(s -> assertThat(s).hasSize(15));
    }

    @Test
    void aRowOfTheServiceNamesItsKey() {
        var lb = nodePort().getFirst();
        var row = new Row(CLUSTER, Map.of("external_ids", lb.externalIds()));
        assertThat(ServiceRows.serviceOf(row)).contains("default/np");
        assertThat(ServiceRows.serviceOf(new Row(CLUSTER, Map.of("external_ids", Map.of()))))
                .isEmpty();
        assertThat(Set.of(lb.name())).containsExactly("Service_default/np_TCP_cluster");
    }
}
