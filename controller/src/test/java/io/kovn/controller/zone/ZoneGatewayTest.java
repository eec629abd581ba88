package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kovn.controller.testing.Clusters;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The node gateway in a real NB, from real Node objects: built once the agent's annotations arrive, with the load
 * balancer groups another controller attaches left alone, a restart writes nothing, and a malformed l3-gateway-config
 * removes the gateway and nothing else.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class ZoneGatewayTest {
    static final Duration CONVERGE = OneZone.CONVERGE;
    OneZone cluster;
    OvnDatabases db;

    @BeforeAll
    void start() {
        cluster = OneZone.start("node-a", c -> {
            Clusters.allocatedNode(
                    c, "node-a", 2, List.of("10.244.0.0/24"), "{\"ipv4\":\"100.88.0.2/16\"}", "172.31.0.2");
            Clusters.allocatedNode(
                    c, "node-b", 3, List.of("10.244.1.0/24"), "{\"ipv4\":\"100.88.0.3/16\"}", "172.31.0.3");
            Clusters.annotateNode(
                    c, "node-a", OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, "{\"ipv4\":\"100.64.0.2/16\"}");
            Clusters.annotateNode(
                    c, "node-b", OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, "{\"ipv4\":\"100.64.0.3/16\"}");
        });
        db = cluster.db;
    }

    @AfterAll
    void stop() {
        if (cluster != null) cluster.close();
    }

    String routers() {
        return db.nbctl("--bare", "--columns=name", "list", "Logical_Router");
    }

    @Test
    @Order(1)
    void withoutTheAgentsAnnotationThereIsNoGatewayButTheRemoteJoinRoute() {
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(db.nbctl("lr-route-list", "ovn_cluster_router"))
                        .contains("100.64.0.3", "100.88.0.3"));
        assertThat(routers()).doesNotContain("GR_node-a");
    }

    @Test
    @Order(2)
    void theAgentsAnnotationBringsTheGatewayRouter() {
        Clusters.annotateNode(cluster.client, "node-a", OvnAnnotations.L3_GATEWAY_CONFIG, ZoneGatewayModelTest.L3);
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(routers()).contains("GR_node-a", "ovn_cluster_router");
            assertThat(db.nbctl("lr-nat-list", "GR_node-a"))
                    .contains("snat", "172.31.0.2", "10.244.0.0/16", "100.64.0.2");
            assertThat(db.nbctl("lr-route-list", "GR_node-a"))
                    .contains("0.0.0.0/0", "172.31.0.254", "rtoe-GR_node-a", "10.244.0.0/16", "100.64.0.1");
            assertThat(db.nbctl("lr-route-list", "ovn_cluster_router"))
                    .contains("10.244.0.0/24", "src-ip", "100.64.0.2");
            assertThat(db.nbctl("--bare", "--columns=name", "list", "Logical_Switch"))
                    .contains("join", "ext_node-a");
            assertThat(db.nbctl("get", "Logical_Router", "GR_node-a", "options:chassis"))
                    .contains("chassis-node-a");
        });
    }

    @Test
    @Order(3)
    void loadBalancerGroupsTheServiceControllerAttachesStayAndARestartWritesNothing() {
        // the zone's service controller attaches its groups to the gateway router once the router exists
        await().atMost(CONVERGE)
                .until(() -> db.nbctl("get", "Logical_Router", "GR_node-a", "load_balancer_group")
                        .contains("-"));
        String group = db.nbctl("--bare", "--columns=_uuid", "find", "Load_Balancer_Group", "name=clusterLBGroup")
                .strip();
        var zone = cluster.restart(() -> {});
        await().atMost(CONVERGE).until(() -> zone.topology().reconciles() > 0 && zone.idle());
        assertThat(zone.databases().nbCounters().transactions()).isZero();
        assertThat(db.nbctl("get", "Logical_Router", "GR_node-a", "load_balancer_group"))
                .contains(group);
    }

    @Test
    @Order(4)
    void aMalformedGatewayAnnotationRemovesTheGatewayAndNothingElse() {
        Clusters.annotateNode(
                cluster.client, "node-a", OvnAnnotations.L3_GATEWAY_CONFIG, "{\"default\":{\"mode\":\"shared\"}}");
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(routers()).doesNotContain("GR_node-a").contains("ovn_cluster_router");
            assertThat(db.nbctl("--bare", "--columns=name", "list", "Logical_Switch"))
                    .doesNotContain("join", "ext_node-a")
                    .contains("node-a", "transit_switch");
            assertThat(db.nbctl("--bare", "--columns=_uuid", "list", "NAT")).isBlank();
            assertThat(db.nbctl("lr-route-list", "ovn_cluster_router"))
                    .doesNotContain("src-ip")
                    .contains("10.244.1.0/24");
        });
        assertThat(cluster.zone().topology().lastPlan().problems())
                .extracting(ZoneModel.NodeProblem::reason)
                .contains("NodeGatewayAnnotationInvalid");
    }
}
