package io.kovn.ovn.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpPrefix;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class NetworkGatewayTest {
    @Test
    void eachNetworkHasItsOwnLinkInTheMasqueradeSubnet() {
        assertThat(NetworkGateway.link(1)).isEqualTo(IpPrefix.parse("169.254.64.4/30"));
        assertThat(NetworkGateway.masqueradeAddress(1)).isEqualTo(IpPrefix.parse("169.254.64.6/30"));
        assertThat(NetworkGateway.link(4095)).isEqualTo(IpPrefix.parse("169.254.127.252/30"));
        Set<IpPrefix> links = new HashSet<>();
        for (int id = 1; id <= 4095; id++) {
            IpPrefix l = NetworkGateway.link(id);
            assertThat(IpPrefix.parse("169.254.0.0/17").contains(l.address())).isTrue();
            assertThat(l.overlaps(IpPrefix.parse("169.254.0.0/24")))
                    .as("kovn's own masquerade addresses")
                    .isFalse();
            links.add(l);
        }
        assertThat(links).hasSize(4095);
    }

    @Test
    void theNetworksGatewayRouterMasqueradesItAndTheNodesTheMasqueradeAddress() {
        NetworkScope scope = NetworkScope.userDefined("blue_net", 1, "layer3");
        NetworkGateway.Rows g = NetworkGateway.of(
                scope,
                1,
                "node-a",
                scope.clusterRouter(),
                List.of(IpPrefix.parse("10.100.0.0/16")),
                IpPrefix.parse("100.65.0.0/16"),
                "chassis-a",
                IpPrefix.parse("172.31.0.2/24"),
                List.of(IpPrefix.parse("10.244.0.0/16")));
        Map<String, Map<String, Object>> byName = g.rows().stream()
                .filter(r -> r.columns().containsKey("name"))
                .collect(Collectors.toMap(r -> (String) r.columns().get("name"), DesiredRow::columns));
        assertThat(byName)
                .containsKeys(
                        "GR_blue_net_node-a",
                        "rtoj-blue_net_ovn_cluster_router",
                        "rtoj-GR_blue_net_node-a",
                        "rtodgr-GR_blue_net_node-a",
                        "dgrtor-GR_blue_net_node-a");
        assertThat((Map<String, String>) byName.get("GR_blue_net_node-a").get("options"))
                .containsEntry("chassis", "chassis-a");
        assertThat(byName.get("rtoj-blue_net_ovn_cluster_router")
                        .get("networks")
                        .toString())
                .contains("100.65.0.1/16");
        assertThat(byName.get("rtoj-blue_net_ovn_cluster_router").get("peer").toString())
                .contains("rtoj-GR_blue_net_node-a");
        assertThat(byName.get("dgrtor-GR_blue_net_node-a").get("networks").toString())
                .contains("169.254.64.5/30");
        List<Map<String, Object>> nats = g.rows().stream()
                .filter(r -> r.table().equals("NAT"))
                .map(DesiredRow::columns)
                .toList();
        assertThat(nats)
                .anySatisfy(n -> assertThat(n)
                        .containsEntry("logical_ip", "10.100.0.0/16")
                        .containsEntry("external_ip", "169.254.64.6"))
                .anySatisfy(n -> assertThat(n)
                        .containsEntry("logical_ip", "169.254.64.6")
                        .containsEntry("external_ip", "172.31.0.2"));
        List<Map<String, Object>> routes = g.rows().stream()
                .filter(r -> r.table().equals("Logical_Router_Static_Route"))
                .map(DesiredRow::columns)
                .toList();
        assertThat(routes)
                .anySatisfy(r -> assertThat(r)
                        .containsEntry("ip_prefix", "10.244.0.0/16")
                        .containsEntry("nexthop", "discard"))
                .anySatisfy(r ->
                        assertThat(r).containsEntry("ip_prefix", "0.0.0.0/0").containsEntry("nexthop", "169.254.64.5"))
                .anySatisfy(r ->
                        assertThat(r).containsEntry("ip_prefix", "0.0.0.0/0").containsEntry("nexthop", "100.65.0.2"));
        assertThat(g.rows().stream().map(DesiredRow::key)).contains(g.nodeRouterPort(), g.nodeRouterNat());
        assertThat((Map<String, String>) byName.get("GR_blue_net_node-a").get("external_ids"))
                .containsEntry("k8s.ovn.org/network", "blue_net");
    }
}
