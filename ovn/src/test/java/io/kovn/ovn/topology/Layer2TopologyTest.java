package io.kovn.ovn.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpPrefix;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class Layer2TopologyTest {
    @Test
    void oneSwitchForEveryZoneTheManagementPortAndTheTransitRouterAsGateway() {
        NetworkScope scope = NetworkScope.userDefined("cluster_udn_red", 7, "layer2");
        List<DesiredRow> rows = Layer2Topology.desired(
                scope, "node-a", 7, List.of(IpPrefix.parse("10.100.0.0/24"), IpPrefix.parse("fd10::/64")));
        Map<String, Map<String, Object>> byName =
                rows.stream().collect(Collectors.toMap(r -> (String) r.columns().get("name"), DesiredRow::columns));
        assertThat(byName)
                .containsOnlyKeys(
                        "cluster_udn_red_ovn_layer2_switch",
                        "k8s-cluster_udn_red_node-a",
                        "stotr-cluster_udn_red_ovn_layer2_switch",
                        "trtos-cluster_udn_red_ovn_layer2_switch",
                        "cluster_udn_red_transit_router");
        assertThat((Map<String, String>)
                        byName.get("cluster_udn_red_ovn_layer2_switch").get("other_config"))
                .containsEntry("interconn-ts", "cluster_udn_red_ovn_layer2_switch")
                .containsEntry("requested-tnl-key", "16711690")
                .containsEntry("subnet", "10.100.0.0/24");
        assertThat(byName.get("k8s-cluster_udn_red_node-a").get("addresses").toString())
                .isEqualTo("[0a:58:0a:64:00:02 10.100.0.2 fd10::2]");
        assertThat(byName.get("trtos-cluster_udn_red_ovn_layer2_switch")
                        .get("networks")
                        .toString())
                .contains("10.100.0.1/24", "fd10::1/64");
        assertThat((Map<String, String>)
                        byName.get("cluster_udn_red_transit_router").get("options"))
                .containsEntry("requested-tnl-key", Long.toString(16711683L + 4096 + 7));
        assertThat((Map<String, String>)
                        byName.get("cluster_udn_red_transit_router").get("external_ids"))
                .containsEntry("k8s.ovn.org/topology", "layer2")
                .containsEntry("k8s-cluster-router", "yes");
    }

    @Test
    void podsOnOtherNodesAreRemotePortsOfTheSwitchWithTheirZonesTunnelKey() {
        NetworkScope scope = NetworkScope.userDefined("cluster_udn_red", 7, "layer2");
        PodPort remote = new PodPort("team-a", "web", "0a:58:0a:64:00:13", List.of(IpPrefix.parse("10.100.0.19/24")));
        DesiredRow port = ZoneTopology.remotePodPort(scope, "team-a/red", remote, "node-b", "chassis-b", 19);
        List<DesiredRow> rows =
                Layer2Topology.desired(scope, "node-a", 7, List.of(IpPrefix.parse("10.100.0.0/24")), List.of(port));
        assertThat(port.columns())
                .containsEntry("name", "team.a.red_team-a_web")
                .containsEntry("type", "remote");
        assertThat((Map<String, String>) port.columns().get("options"))
                .containsEntry("requested-chassis", "chassis-b")
                .containsEntry("requested-tnl-key", "19");
        assertThat(port.columns().get("addresses").toString()).isEqualTo("[0a:58:0a:64:00:13 10.100.0.19]");
        assertThat((Map<String, String>) port.columns().get("external_ids"))
                .containsEntry("k8s.ovn.org/network", "cluster_udn_red")
                .containsEntry("k8s.ovn.org/owner-type", "RemoteZone");
        DesiredRow sw = rows.stream()
                .filter(r ->
                        "cluster_udn_red_ovn_layer2_switch".equals(r.columns().get("name")))
                .findFirst()
                .orElseThrow();
        assertThat(sw.columns().get("ports").toString()).contains(port.key());
        assertThat(rows).contains(port);
        // the pod's own zone: the local port asks for the same key
        DesiredRow local = ZoneTopology.podPort(scope, "team-a/red", remote, OptionalLong.of(19));
        assertThat((Map<String, String>) local.columns().get("options")).containsEntry("requested-tnl-key", "19");
        assertThat(local.columns().get("name")).isEqualTo(port.columns().get("name"));
    }
}
