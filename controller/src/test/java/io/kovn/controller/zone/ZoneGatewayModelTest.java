package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.Ref;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The pure zone model's node gateway: GR_<node>, join, ext_<node>, routes and SNAT. */
class ZoneGatewayModelTest {
    static final String L3 = "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"br-phy\",\"interface-id\":\"br-phy_a\","
            + "\"mac-address\":\"0a:58:ac:1f:00:02\",\"ip-addresses\":[\"172.31.0.2/24\"],\"ip-address\":\"172.31.0.2/24\","
            + "\"next-hops\":[\"172.31.0.254\"],\"next-hop\":\"172.31.0.254\",\"node-port-enable\":\"true\"}}";

    static Node gatewayNode(String name, int i, String... extra) {
        String[] all = new String[extra.length + 4];
        all[0] = OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR;
        all[1] = "{\"ipv4\":\"100.64.0." + (i + 2) + "/16\"}";
        all[2] = OvnAnnotations.L3_GATEWAY_CONFIG;
        all[3] = L3;
        System.arraycopy(extra, 0, all, 4, extra.length);
        return ZoneModelTest.node(name, i, all);
    }

    /** Desired rows of a table by their OVN name (routes and NATs by their key). */
    static Map<String, Map<String, Object>> byName(ZoneModel.Plan p, String table) {
        var t = p.northbound().tables().get(table);
        Map<String, Map<String, Object>> out = new HashMap<>();
        for (Map.Entry<String, Desired> e : t.rows().entrySet()) {
            Object name = e.getValue().columns().get("name");
            out.put(name instanceof String s ? s : e.getKey(), e.getValue().columns());
        }
        return out;
    }

    static Set<String> refs(Object column) {
        return ((Set<?>) column).stream().map(r -> ((Ref) r).key()).collect(Collectors.toSet());
    }

    static Map<String, Object> route(ZoneModel.Plan p, String prefix, String policy) {
        return byName(p, "Logical_Router_Static_Route").values().stream()
                .filter(r -> r.get("ip_prefix").equals(prefix)
                        && Set.copyOf((Set<?>) r.getOrDefault("policy", Set.of()))
                                .equals(policy == null ? Set.of() : Set.of(policy)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no route " + prefix + " " + policy));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theGatewayRouterIsBuiltAsTheReferenceBuildsIt() {
        ZoneModel.Plan p =
                ZoneModel.plan("a", List.of(gatewayNode("a", 0), gatewayNode("b", 1)), Set.of(), ZoneModelTest.EMPTY);
        assertThat(p.problems()).isEmpty();
        Map<String, Map<String, Object>> routers = byName(p, "Logical_Router");
        Map<String, Object> gr = routers.get("GR_a");
        assertThat(gr.get("options"))
                .isEqualTo(Map.of(
                        "chassis",
                        "chassis-a",
                        "lb_force_snat_ip",
                        "router_ip",
                        "snat-ct-zone",
                        "0",
                        "always_learn_from_arp_request",
                        "false",
                        "dynamic_neigh_routers",
                        "true",
                        "mac_binding_age_threshold",
                        "300"));
        assertThat((Map<String, String>) gr.get("external_ids"))
                .containsEntry("physical_ip", "172.31.0.2")
                .containsEntry("physical_ips", "172.31.0.2")
                .containsEntry("k8s.ovn.org/owner-type", "Node");
        assertThat(gr).doesNotContainKey("load_balancer_group");

        Map<String, Map<String, Object>> lrps = byName(p, "Logical_Router_Port");
        assertThat(lrps.get("rtoj-ovn_cluster_router"))
                .containsEntry("networks", Set.of("100.64.0.1/16"))
                .containsEntry("mac", "0a:58:64:40:00:01");
        assertThat(lrps.get("rtoj-GR_a")).containsEntry("networks", Set.of("100.64.0.2/16"));
        assertThat(lrps.get("rtoe-GR_a"))
                .containsEntry("networks", Set.of("172.31.0.2/24"))
                .containsEntry("mac", "0a:58:ac:1f:00:02");

        Map<String, Map<String, Object>> lsps = byName(p, "Logical_Switch_Port");
        assertThat(lsps.get("br-phy_a"))
                .containsEntry("type", "localnet")
                .containsEntry("addresses", Set.of("unknown"))
                .containsEntry("options", Map.of("network_name", "physnet"));
        assertThat(lsps.get("etor-GR_a"))
                .containsEntry("type", "router")
                .containsEntry(
                        "options",
                        Map.of(
                                "router-port",
                                "rtoe-GR_a",
                                "nat-addresses",
                                "router",
                                "exclude-lb-vips-from-garp",
                                "true"));
        assertThat(lsps.get("jtor-GR_a")).containsEntry("options", Map.of("router-port", "rtoj-GR_a"));
        assertThat(lsps.get("jtor-ovn_cluster_router"))
                .containsEntry("options", Map.of("router-port", "rtoj-ovn_cluster_router"));
        Map<String, Map<String, Object>> switches = byName(p, "Logical_Switch");
        assertThat(switches).containsKeys("join", "ext_a");
        assertThat(refs(switches.get("ext_a").get("ports"))).hasSize(2);

        Map<String, Map<String, Object>> nats = byName(p, "NAT");
        assertThat(nats.values())
                .extracting(n -> n.get("type") + " " + n.get("logical_ip") + " -> " + n.get("external_ip"))
                .containsExactlyInAnyOrder("snat 10.244.0.0/16 -> 172.31.0.2", "snat 100.64.0.2 -> 172.31.0.2");
        assertThat(refs(gr.get("nat"))).hasSize(2);

        assertThat(route(p, "10.244.0.0/16", null)).containsEntry("nexthop", "100.64.0.1");
        assertThat(route(p, "0.0.0.0/0", null))
                .containsEntry("nexthop", "172.31.0.254")
                .containsEntry("output_port", Set.of("rtoe-GR_a"));
        assertThat(route(p, "10.244.0.0/24", "src-ip")).containsEntry("nexthop", "100.64.0.2");
        assertThat(route(p, "100.64.0.2", null)).containsEntry("nexthop", "100.64.0.2");
        // b's GR join address goes back over transit to b.
        assertThat(route(p, "100.64.0.3/32", null)).containsEntry("nexthop", "100.88.0.3");

        // Which router holds which route.
        assertThat(refs(gr.get("static_routes"))).hasSize(2);
        Map<String, Object> cluster = routers.get("ovn_cluster_router");
        assertThat(refs(cluster.get("ports"))).hasSize(3);
        assertThat(refs(cluster.get("static_routes")))
                .contains(keyOf(p, route(p, "10.244.0.0/24", "src-ip")), keyOf(p, route(p, "100.64.0.3/32", null)));
    }

    static String keyOf(ZoneModel.Plan p, Map<String, Object> row) {
        return (String) ((Map<?, ?>) row.get("external_ids")).get("k8s.ovn.org/id");
    }

    @Test
    void withoutTheAgentsAnnotationsThereIsNoGatewayAndAnEventSaysWhy() {
        ZoneModel.Plan p = ZoneModel.plan(
                "a", List.of(ZoneModelTest.node("a", 0), gatewayNode("b", 1)), Set.of(), ZoneModelTest.EMPTY);
        assertThat(p.problems())
                .extracting(pr -> pr.node() + " " + pr.reason() + ": " + pr.message())
                .containsExactly("a NodeGatewayAnnotationsMissing: zone a builds no gateway for node a: missing "
                        + "k8s.ovn.org/node-gateway-router-lrp-ifaddr, k8s.ovn.org/l3-gateway-config");
        assertThat(byName(p, "Logical_Router")).containsOnlyKeys("ovn_cluster_router");
        assertThat(p.northbound().tables()).containsKey("NAT");
        assertThat(p.northbound().tables().get("NAT").rows()).isEmpty();
        assertThat(byName(p, "Logical_Switch")).containsOnlyKeys("a", "transit_switch");
        assertThat(p.programmed()).containsExactly("b");
    }

    @Test
    void aMalformedGatewayAnnotationLeavesTheRestOfTheZoneAsItWas() {
        ZoneModel.Plan without = ZoneModel.plan(
                "a", List.of(ZoneModelTest.node("a", 0), gatewayNode("b", 1)), Set.of(), ZoneModelTest.EMPTY);
        ZoneModel.Plan p = ZoneModel.plan(
                "a",
                List.of(
                        gatewayNode(
                                "a",
                                0,
                                OvnAnnotations.L3_GATEWAY_CONFIG,
                                "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"br-phy\"}}"),
                        gatewayNode("b", 1)),
                Set.of(),
                ZoneModelTest.EMPTY);
        assertThat(p.problems())
                .extracting(pr -> pr.reason() + ": " + pr.message())
                .containsExactly(
                        "NodeGatewayAnnotationInvalid: zone a builds no gateway for node a: k8s.ovn.org/l3-gateway-config: interface-id is missing");
        assertThat(ZoneModelTest.rows(p)).isEqualTo(ZoneModelTest.rows(without));
        ZoneModel.Plan disabled = ZoneModel.plan(
                "a",
                List.of(gatewayNode("a", 0, OvnAnnotations.L3_GATEWAY_CONFIG, "{\"default\":{\"mode\":\"disabled\"}}")),
                Set.of(),
                ZoneModelTest.EMPTY);
        assertThat(disabled.problems()).isEmpty();
        assertThat(byName(disabled, "Logical_Router")).containsOnlyKeys("ovn_cluster_router");
    }

    @Test
    void aMalformedJoinAddressOfARemoteNodeCostsOnlyItsRoute() {
        ZoneModel.Plan p = ZoneModel.plan(
                "a",
                List.of(
                        gatewayNode("a", 0),
                        gatewayNode("b", 1, OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, "{\"ipv4\":\"x\"}")),
                Set.of(),
                ZoneModelTest.EMPTY);
        assertThat(p.programmed()).containsExactly("b");
        assertThat(byName(p, "Logical_Router_Static_Route").values())
                .noneMatch(r -> r.get("ip_prefix").equals("100.64.0.3/32"));
    }
}
