package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.clustermanager.NodeAllocator.Decision;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeAllocatorTest {

    private static NodeAllocation patched(Decision d) {
        assertThat(d).isInstanceOf(Decision.Patch.class);
        return ((Decision.Patch) d).allocation();
    }

    @Test
    void firstNodeGetsTheReferenceValues() {
        NodeAllocator a = new NodeAllocator(ClusterManagerConfig.defaults());
        Map<String, String> ann = patched(a.ensure("node-a", Map.of())).annotations();
        assertThat(ann)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"10.244.0.0/24\"]}",
                        OvnAnnotations.NODE_ID, "2",
                        OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, "{\"ipv4\":\"100.88.0.2/16\"}",
                        OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, "{\"ipv4\":\"100.64.0.2/16\"}"));
        assertThat(a.ensure("node-a", ann)).isInstanceOf(Decision.UpToDate.class);
    }

    @Test
    void dualStackGivesOneSubnetPerFamilyAndBothTransitAddresses() {
        NodeAllocator a = new NodeAllocator(ClusterManagerConfig.of(
                List.of(ClusterNetwork.parse("fd00:10:244::/48/64"), ClusterNetwork.parse("10.244.0.0/16/24"))));
        a.ensure("n1", Map.of());
        Map<String, String> ann = patched(a.ensure("n2", Map.of())).annotations();
        assertThat(ann.get(OvnAnnotations.NODE_SUBNETS))
                .isEqualTo("{\"default\":[\"10.244.1.0/24\",\"fd00:10:244:1::/64\"]}");
        assertThat(ann.get(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR))
                .isEqualTo("{\"ipv4\":\"100.88.0.3/16\",\"ipv6\":\"fd97::3/64\"}");
        assertThat(ann.get(OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR))
                .isEqualTo("{\"ipv4\":\"100.64.0.3/16\",\"ipv6\":\"fd98::3/64\"}");
    }

    @Test
    void aNodeAllocatedBeforeTheGatewayGetsOnlyItsJoinAddressAdded() {
        NodeAllocator a = new NodeAllocator(ClusterManagerConfig.defaults());
        Map<String, String> old = Map.of(
                OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"10.244.5.0/24\"]}",
                OvnAnnotations.NODE_ID, "9",
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, "{\"ipv4\":\"100.88.0.9/16\"}");
        Map<String, String> ann = patched(a.ensure("old", old)).annotations();
        assertThat(ann)
                .containsAllEntriesOf(old)
                .containsEntry(OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, "{\"ipv4\":\"100.64.0.9/16\"}");
    }

    @Test
    void restartAdoptsExistingAllocationsBeforeHandingOutNewOnes() {
        NodeAllocator before = new NodeAllocator(ClusterManagerConfig.defaults());
        Map<String, String> a = patched(before.ensure("a", Map.of())).annotations();
        Map<String, String> b = patched(before.ensure("b", Map.of())).annotations();
        before.release("a");
        Map<String, String> c = patched(before.ensure("c", Map.of())).annotations(); // reuses a's values

        NodeAllocator after = new NodeAllocator(ClusterManagerConfig.defaults());
        after.restore("b", b);
        after.restore("c", c);
        assertThat(after.ensure("new", Map.of())).isInstanceOfSatisfying(Decision.Patch.class, p -> {
            assertThat(p.allocation().id().value()).isEqualTo(4);
            assertThat(p.allocation().subnets()).hasToString("[10.244.2.0/24]");
        });
        assertThat(after.ensure("b", b)).isInstanceOf(Decision.UpToDate.class);
        assertThat(after.ensure("c", c)).isInstanceOf(Decision.UpToDate.class);
        assertThat(c).isEqualTo(a);
    }

    @Test
    void aDuplicatedAnnotationIsReallocatedForTheSecondNodeOnly() {
        NodeAllocator a = new NodeAllocator(ClusterManagerConfig.defaults());
        Map<String, String> first = patched(a.ensure("first", Map.of())).annotations();
        NodeAllocation copy = patched(a.ensure("copycat", first));
        assertThat(copy.id().value()).isEqualTo(3);
        assertThat(copy.subnets()).hasToString("[10.244.1.0/24]");
        assertThat(a.ensure("first", first)).isInstanceOf(Decision.UpToDate.class);
    }

    @Test
    void malformedAnnotationsAreOverwrittenWithAFreshAllocation() {
        NodeAllocator a = new NodeAllocator(ClusterManagerConfig.defaults());
        Map<String, String> bad = new HashMap<>();
        bad.put(OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"nonsense\"]}");
        bad.put(OvnAnnotations.NODE_ID, "x");
        assertThat(patched(a.ensure("n", bad)).id().value()).isEqualTo(2);
    }

    @Test
    void exhaustionIsADecisionNotACrash() {
        NodeAllocator a = new NodeAllocator(ClusterManagerConfig.of(List.of(ClusterNetwork.parse("10.0.0.0/23/24"))));
        a.ensure("n1", Map.of());
        a.ensure("n2", Map.of());
        assertThat(a.ensure("n3", Map.of()))
                .isInstanceOfSatisfying(
                        Decision.Exhausted.class,
                        e -> assertThat(e.message())
                                .isEqualTo(
                                        "no free ipv4 node subnet in cluster networks [10.0.0.0/23/24] for node n3"));
        a.release("n1");
        assertThat(patched(a.ensure("n3", Map.of())).subnets()).hasToString("[10.0.0.0/24]");

        NodeAllocator ids = new NodeAllocator(ClusterManagerConfig.defaults().withMaxNodeId(3));
        ids.ensure("n1", Map.of());
        ids.ensure("n2", Map.of());
        assertThat(ids.ensure("n3", Map.of()))
                .isInstanceOfSatisfying(
                        Decision.Exhausted.class, e -> assertThat(e.message()).contains("no free node id in 2..3"));
    }

    @Test
    void layer3NetworksGiveEveryNodeASubnetEachAndKeepThemOverARestart() {
        Map<String, List<ClusterNetwork>> l3 = Map.of(
                "blue_a",
                List.of(ClusterNetwork.parse("10.100.0.0/16/24")),
                "cluster_udn_red",
                List.of(ClusterNetwork.parse("10.100.0.0/16/24"), ClusterNetwork.parse("fd10::/48/64")));
        NodeAllocator before = new NodeAllocator(ClusterManagerConfig.defaults());
        Map<String, String> n1 = patched(before.ensure("n1", Map.of())).annotations();
        assertThat(before.networks(l3, Map.of("n1", n1))).isTrue();
        assertThat(before.networks(l3, Map.of("n1", n1)))
                .as("the same networks again: no change")
                .isFalse();
        n1 = patched(before.ensure("n1", n1)).annotations();
        Map<String, String> n2 = patched(before.ensure("n2", Map.of())).annotations();
        assertThat(n1.get(OvnAnnotations.NODE_SUBNETS))
                .isEqualTo("{\"blue_a\":[\"10.100.0.0/24\"],"
                        + "\"cluster_udn_red\":[\"10.100.0.0/24\",\"fd10::/64\"],\"default\":[\"10.244.0.0/24\"]}");
        assertThat(n2.get(OvnAnnotations.NODE_SUBNETS))
                .as("networks may overlap: each has its own pool")
                .isEqualTo(
                        "{\"blue_a\":[\"10.100.1.0/24\"],\"cluster_udn_red\":[\"10.100.1.0/24\",\"fd10:0:0:1::/64\"],"
                                + "\"default\":[\"10.244.1.0/24\"]}");

        // a restarted cluster manager learns the networks after the nodes: until then nodes keep their
        // entries, then it adopts them before allocating
        NodeAllocator after = new NodeAllocator(ClusterManagerConfig.defaults());
        after.restore("n2", n2);
        assertThat(after.ensure("n2", n2)).isInstanceOf(Decision.UpToDate.class);
        Map<String, Map<String, String>> nodes = new LinkedHashMap<>();
        nodes.put("n1", n1);
        nodes.put("n2", n2);
        after.networks(l3, nodes);
        assertThat(after.ensure("n2", n2)).isInstanceOf(Decision.UpToDate.class);
        assertThat(after.ensure("n1", n1)).isInstanceOf(Decision.UpToDate.class);
        assertThat(patched(after.ensure("n3", Map.of())).annotations().get(OvnAnnotations.NODE_SUBNETS))
                .contains("\"blue_a\":[\"10.100.2.0/24\"]");

        // a network that is gone leaves the annotation at the node's next reconcile, and frees its subnets
        assertThat(after.networks(Map.of("blue_a", l3.get("blue_a")), nodes)).isTrue();
        assertThat(patched(after.ensure("n1", n1)).annotations().get(OvnAnnotations.NODE_SUBNETS))
                .isEqualTo("{\"blue_a\":[\"10.100.0.0/24\"],\"default\":[\"10.244.0.0/24\"]}");
    }
}
