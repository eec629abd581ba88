package io.kovn.ovn.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.TrustZoneMembership;
import io.kovn.ovsdb.diff.Ref;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class ZoneTopologyTest {
    static final LocalNode A = new LocalNode(
            "node-a",
            new NodeId(2),
            List.of(IpPrefix.parse("10.244.0.0/24")),
            NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.2/16\"}"),
            List.of(IpLiterals.parse("172.18.0.2")));
    static final RemoteNode B = new RemoteNode(
            "node-b",
            new NodeId(3),
            List.of(IpPrefix.parse("10.244.1.0/24")),
            NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.3/16\"}"),
            NodeChassisId.parse("chassis-b"),
            NodeEncapIps.parse("[\"172.18.0.3\"]"));
    static final PodPort POD =
            new PodPort("default", "web", "0a:58:0a:f4:00:03", List.of(IpPrefix.parse("10.244.0.3/24")));

    /** name-ish -> concise column view, excluding external_ids. */
    private static Map<String, String> concise(List<DesiredRow> rows) {
        Map<String, String> out = new TreeMap<>();
        for (DesiredRow r : rows) {
            Map<String, Object> cols = new TreeMap<>(r.columns());
            cols.remove("external_ids");
            out.put(r.table() + " " + r.key(), cols.toString());
        }
        return out;
    }

    @Test
    void localTopologyAndRemoteNodeRowByRow() {
        ZoneTopology.Desired d = ZoneTopology.desired(A, List.of(B));
        Map<String, String> nb = concise(d.northbound());
        assertThat(nb)
                .containsOnlyKeys(
                        "Logical_Router default-network-controller:Cluster:ovn_cluster_router",
                        "Logical_Switch default-network-controller:Cluster:transit_switch",
                        "Logical_Switch default-network-controller:Node:node-a:switch",
                        "Logical_Router_Port default-network-controller:Node:node-a:rtos",
                        "Logical_Router_Port default-network-controller:Node:node-a:rtots",
                        "Logical_Switch_Port default-network-controller:Node:node-a:stor",
                        "Logical_Switch_Port default-network-controller:Node:node-a:tstor",
                        "Logical_Switch_Port default-network-controller:RemoteZone:node-b:tstor",
                        "Logical_Router_Static_Route default-network-controller:RemoteZone:node-b:route:v4",
                        "Logical_Router_Static_Route default-network-controller:RemoteZone:node-b:node-ip-route:172.18.0.3",
                        "Logical_Router_Static_Route default-network-controller:Node:node-a:node-ip-route:172.18.0.2",
                        "Logical_Switch_Port default-network-controller:Node:node-a:mgmt-port");
        assertThat(nb.get("Logical_Router_Port default-network-controller:Node:node-a:rtos"))
                .isEqualTo("{mac=0a:58:0a:f4:00:01, name=rtos-node-a, networks=[10.244.0.1/24]}");
        assertThat(nb.get("Logical_Router_Port default-network-controller:Node:node-a:rtots"))
                .isEqualTo("{mac=0a:58:64:58:00:02, name=rtots-node-a, networks=[100.88.0.2/16]}");
        assertThat(nb.get("Logical_Switch_Port default-network-controller:Node:node-a:tstor"))
                .contains(
                        "addresses=[router]",
                        "name=tstor-node-a",
                        "type=router",
                        "requested-tnl-key=2",
                        "router-port=rtots-node-a");
        assertThat(nb.get("Logical_Switch_Port default-network-controller:RemoteZone:node-b:tstor"))
                .contains(
                        "addresses=[0a:58:64:58:00:03 100.88.0.3/16]",
                        "name=tstor-node-b",
                        "type=remote",
                        "requested-chassis=chassis-b",
                        "requested-tnl-key=3");
        assertThat(nb.get("Logical_Router_Static_Route default-network-controller:RemoteZone:node-b:route:v4"))
                .isEqualTo("{ip_prefix=10.244.1.0/24, nexthop=100.88.0.3}");
        assertThat(nb.get("Logical_Switch_Port default-network-controller:Node:node-a:mgmt-port"))
                .isEqualTo("{addresses=[0a:58:0a:f4:00:02 10.244.0.2], name=k8s-node-a}");
        assertThat(nb.get(
                        "Logical_Router_Static_Route default-network-controller:Node:node-a:node-ip-route:172.18.0.2"))
                .isEqualTo("{ip_prefix=172.18.0.2/32, nexthop=10.244.0.2}");
        assertThat(
                        nb.get(
                                "Logical_Router_Static_Route default-network-controller:RemoteZone:node-b:node-ip-route:172.18.0.3"))
                .isEqualTo("{ip_prefix=172.18.0.3/32, nexthop=100.88.0.3}");
        assertThat(nb.get("Logical_Switch default-network-controller:Node:node-a:switch"))
                .contains("exclude_ips=10.244.0.1..10.244.0.2");
        assertThat(nb.get("Logical_Switch default-network-controller:Cluster:transit_switch"))
                .contains("interconn-ts=transit_switch", "requested-tnl-key=16711683");

        DesiredRow ls = d.northbound().stream()
                .filter(r -> r.key().endsWith("node-a:switch"))
                .findFirst()
                .orElseThrow();
        // pods' ports are reconciled per pod and attached to the switch, never listed here
        assertThat((Set<Object>) ls.columns().get("ports"))
                .containsExactlyInAnyOrder(
                        Ref.to("Logical_Switch_Port", "default-network-controller:Node:node-a:stor"),
                        Ref.to("Logical_Switch_Port", "default-network-controller:Node:node-a:mgmt-port"));
        DesiredRow ts = d.northbound().stream()
                .filter(r -> r.key().endsWith("transit_switch"))
                .findFirst()
                .orElseThrow();
        assertThat((Set<Object>) ts.columns().get("ports"))
                .containsExactlyInAnyOrder(
                        Ref.to("Logical_Switch_Port", "default-network-controller:Node:node-a:tstor"),
                        Ref.to("Logical_Switch_Port", "default-network-controller:RemoteZone:node-b:tstor"));
        DesiredRow route = d.northbound().stream()
                .filter(r -> r.key().endsWith("node-b:route:v4"))
                .findFirst()
                .orElseThrow();
        assertThat((Map<Object, Object>) route.columns().get("external_ids"))
                .containsEntry("ic-node", "node-b")
                .containsEntry("k8s.ovn.org/owner-controller", "default-network-controller")
                .containsEntry("k8s.ovn.org/owner-type", "RemoteZone");

        Map<String, String> sb = concise(d.southbound());
        assertThat(sb)
                .containsOnly(
                        Map.entry(
                                "Chassis default-network-controller:RemoteZone:node-b:chassis",
                                "{encaps=[Ref[table=Encap, key=chassis-b/172.18.0.3]], hostname=node-b, name=chassis-b, other_config={is-remote=true}}"),
                        Map.entry(
                                "Encap chassis-b/172.18.0.3",
                                "{chassis_name=chassis-b, ip=172.18.0.3, options={csum=true}, type=geneve}"));
    }

    @Test
    void aPodsPortHasItsAddressesAsPortSecurityAndPodIds() {
        DesiredRow port = ZoneTopology.podPort(POD);
        assertThat(concise(List.of(port)))
                .containsExactly(
                        Map.entry(
                                "Logical_Switch_Port default-network-controller:Pod:default/web",
                                "{addresses=[0a:58:0a:f4:00:03 10.244.0.3], name=default_web, port_security=[0a:58:0a:f4:00:03 10.244.0.3]}"));
        assertThat((Map<Object, Object>) port.columns().get("external_ids"))
                .containsEntry("k8s.ovn.org/owner-type", "Pod")
                .containsEntry("k8s.ovn.org/name", "default/web")
                .containsEntry("namespace", "default")
                .containsEntry("pod", "true");
        PodPort dual = new PodPort(
                "default",
                "dual",
                "0a:58:0a:f4:00:04",
                List.of(IpPrefix.parse("10.244.0.4/24"), IpPrefix.parse("fd00:10:244:1::4/64")));
        assertThat((Set<Object>) ZoneTopology.podPort(dual).columns().get("port_security"))
                .containsExactly("0a:58:0a:f4:00:04 10.244.0.4 fd00:10:244:1::4");
    }

    @Test
    void everyRowWithExternalIdsCarriesItsOwnerIds() {
        ZoneTopology.Desired d = ZoneTopology.desired(A, List.of(B));
        List<DesiredRow> nbRows = new ArrayList<>(d.northbound());
        nbRows.add(ZoneTopology.podPort(POD));
        for (DesiredRow r : nbRows) {
            assertThat((Map<Object, Object>) r.columns().get("external_ids"))
                    .containsEntry("k8s.ovn.org/id", r.key())
                    .containsKeys("k8s.ovn.org/owner-controller", "k8s.ovn.org/owner-type", "k8s.ovn.org/name");
            assertThat(ZoneTopology.keyOf(r.table(), r.columns())).isEqualTo(r.key());
        }
        for (DesiredRow r : d.southbound()) {
            assertThat(ZoneTopology.keyOf(r.table(), r.columns())).isEqualTo(r.key());
        }
    }

    static LocalGateway gateway(String join, String ips, String hops, List<IpPrefix> cluster) {
        return new LocalGateway(
                NodeGatewayRouterLrpIfaddr.parse(join),
                L3GatewayConfig.parse("{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"br-phy\","
                        + "\"interface-id\":\"br-phy_node-a\",\"mac-address\":\"0a:58:ac:12:00:02\",\"ip-addresses\":"
                        + ips
                        + ",\"next-hops\":" + hops + "}}"),
                "chassis-a",
                cluster);
    }

    @Test
    void theGatewaysRowsCarryOwnerIdsAndAreFamilyAware() {
        LocalNode dual = new LocalNode(
                        "node-a",
                        new NodeId(2),
                        List.of(IpPrefix.parse("10.244.0.0/24"), IpPrefix.parse("fd00:10:244:1::/64")),
                        NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.2/16\",\"ipv6\":\"fd97::2/64\"}"),
                        List.of())
                .withGateway(gateway(
                        "{\"ipv4\":\"100.64.0.2/16\",\"ipv6\":\"fd98::2/64\"}",
                        "[\"172.18.0.2/16\",\"fc00:f853:ccd:e793::2/64\"]",
                        "[\"172.18.0.1\"]",
                        List.of(IpPrefix.parse("10.244.0.0/16"), IpPrefix.parse("fd00:10:244::/48"))));
        ZoneTopology.Desired d = ZoneTopology.desired(dual, List.of(B));
        for (DesiredRow r : d.northbound()) {
            assertThat((Map<Object, Object>) r.columns().get("external_ids"))
                    .containsEntry("k8s.ovn.org/id", r.key())
                    .containsKeys("k8s.ovn.org/owner-controller", "k8s.ovn.org/owner-type", "k8s.ovn.org/name");
        }
        Set<String> routes = d.northbound().stream()
                .filter(r -> r.table().equals("Logical_Router_Static_Route"))
                .map(r -> r.columns().get("ip_prefix") + " via " + r.columns().get("nexthop")
                        + (((Set<?>) r.columns().getOrDefault("policy", Set.of())).isEmpty() ? "" : " src-ip"))
                .collect(Collectors.toSet());
        assertThat(routes)
                .contains(
                        "10.244.0.0/16 via 100.64.0.1",
                        "fd00:10:244::/48 via fd98::1",
                        "10.244.0.0/24 via 100.64.0.2 src-ip",
                        "fd00:10:244:1::/64 via fd98::2 src-ip",
                        "0.0.0.0/0 via 172.18.0.1",
                        "100.64.0.2 via 100.64.0.2",
                        "fd98::2 via fd98::2");
        // a next hop only for IPv4: no IPv6 default route
        assertThat(routes).noneMatch(r -> r.startsWith("::/0"));
        assertThat(d.northbound().stream()
                        .filter(r -> r.table().equals("NAT"))
                        .map(r -> r.columns().get("logical_ip") + " -> "
                                + r.columns().get("external_ip"))
                        .collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(
                        "10.244.0.0/16 -> 172.18.0.2",
                        "fd00:10:244::/48 -> fc00:f853:ccd:e793::2",
                        "100.64.0.2 -> 172.18.0.2",
                        "fd98::2 -> fc00:f853:ccd:e793::2");
        assertThat(d.northbound().stream()
                        .filter(r -> r.table().equals("Logical_Router_Port"))
                        .filter(r -> r.columns().get("name").equals("rtoj-ovn_cluster_router"))
                        .findFirst()
                        .orElseThrow()
                        .columns()
                        .get("networks"))
                .isEqualTo(Set.of("100.64.0.1/16", "fd98::1/64"));
        // without a gateway, none of its rows
        assertThat(ZoneTopology.desired(A, List.of(B)).northbound())
                .noneMatch(r -> r.table().equals("NAT")
                        || String.valueOf(r.columns().get("name")).startsWith("GR_"));
    }

    @Test
    void dualStackRemoteGetsARoutePerFamily() {
        RemoteNode dual = new RemoteNode(
                "node-c",
                new NodeId(4),
                List.of(IpPrefix.parse("10.244.2.0/24"), IpPrefix.parse("fd00:10:244:3::/64")),
                NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.4/16\",\"ipv6\":\"fd97::4/64\"}"),
                NodeChassisId.parse("chassis-c"),
                NodeEncapIps.parse("[\"172.18.0.4\",\"172.19.0.4\"]"));
        ZoneTopology.Desired d = ZoneTopology.desired(A, List.of(dual));
        assertThat(d.northbound().stream()
                        .filter(r -> r.table().equals("Logical_Router_Static_Route"))
                        .map(r -> r.columns().get("ip_prefix") + " via "
                                + r.columns().get("nexthop"))
                        .collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(
                        "10.244.2.0/24 via 100.88.0.4",
                        "fd00:10:244:3::/64 via fd97::4",
                        "172.18.0.4/32 via 100.88.0.4",
                        "172.19.0.4/32 via 100.88.0.4",
                        "172.18.0.2/32 via 10.244.0.2");
        assertThat(d.southbound()).filteredOn(r -> r.table().equals("Encap")).hasSize(2);
    }

    @Test
    void trustZonesDecideWhichRemotesAreProgrammed() {
        RemoteNode c = new RemoteNode(
                "node-c",
                new NodeId(4),
                List.of(IpPrefix.parse("10.244.2.0/24")),
                NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.4/16\"}"),
                NodeChassisId.parse("chassis-c"),
                NodeEncapIps.parse("[\"172.18.0.4\"]"));
        RemoteNode self = new RemoteNode(
                "node-x",
                new NodeId(5),
                List.of(IpPrefix.parse("10.244.3.0/24")),
                NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.5/16\"}"),
                NodeChassisId.parse("chassis-a"),
                NodeEncapIps.parse("[\"172.18.0.5\"]"));
        RemotePeers.Selection s = RemotePeers.select(
                Optional.of("chassis-a"),
                TrustZoneMembership.of("{\"__default\":[\"tz1\",\"tz2\"]}", "chassis-a"),
                List.of(
                        new RemotePeers.Candidate(B, TrustZoneMembership.of("{\"__default\":[\"tz2\"]}", "chassis-b")),
                        new RemotePeers.Candidate(c, TrustZoneMembership.of(null, "chassis-c")),
                        new RemotePeers.Candidate(self, TrustZoneMembership.of(null, "chassis-a"))));
        assertThat(s.programmed()).containsExactly(B);
        assertThat(s.skipped()).extracting(RemotePeers.Skipped::node).containsExactly("node-c", "node-x");
        assertThat(s.skipped().get(0).reason()).isEqualTo("no common trust zone (local tz1,tz2, remote none)");

        RemotePeers.Selection isolated = RemotePeers.select(
                Optional.of("chassis-a"),
                TrustZoneMembership.of("{\"__default\":\"oops\"}", "chassis-a"),
                List.of(new RemotePeers.Candidate(c, TrustZoneMembership.of(null, "chassis-c"))));
        assertThat(isolated.programmed()).isEmpty();
        assertThat(isolated.skipped().getFirst().reason()).startsWith("local node isolated: k8s.ovn.org/trust-zones: ");
    }

    @Test
    void aUserDefinedLayer3NetworkIsTheSameTopologyNamedAndOwnedByItsScope() {
        NetworkScope blue = NetworkScope.userDefined("ns1_udn-a", 5, "layer3");
        LocalNode a = new LocalNode(
                "node-a",
                new NodeId(2),
                List.of(IpPrefix.parse("10.100.0.0/24")),
                NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.2/16\"}"),
                List.of(IpLiterals.parse("172.18.0.2")));
        RemoteNode b = new RemoteNode(
                "node-b",
                new NodeId(3),
                List.of(IpPrefix.parse("10.100.1.0/24")),
                NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.3/16\"}"),
                NodeChassisId.parse("chassis-b"),
                NodeEncapIps.parse("[\"172.18.0.3\"]"),
                List.of(IpLiterals.parse("172.18.0.3")),
                List.of(IpLiterals.parse("100.64.0.3")));
        ZoneTopology.Desired d = ZoneTopology.desired(blue, a, List.of(b), new ZoneTopology.Memo());
        assertThat(d.southbound())
                .as("remote chassis are programmed once, by the default network")
                .isEmpty();
        Map<String, String> nb = concise(d.northbound());
        String c = "ns1_udn-a-network-controller";
        assertThat(nb)
                .containsOnlyKeys(
                        "Logical_Router " + c + ":Cluster:ns1_udn.a_ovn_cluster_router",
                        "Logical_Switch " + c + ":Cluster:ns1_udn.a_transit_switch",
                        "Logical_Switch " + c + ":Node:node-a:switch",
                        "Logical_Router_Port " + c + ":Node:node-a:rtos",
                        "Logical_Router_Port " + c + ":Node:node-a:rtots",
                        "Logical_Switch_Port " + c + ":Node:node-a:stor",
                        "Logical_Switch_Port " + c + ":Node:node-a:tstor",
                        "Logical_Switch_Port " + c + ":RemoteZone:node-b:tstor",
                        "Logical_Router_Static_Route " + c + ":RemoteZone:node-b:route:v4",
                        "Logical_Switch_Port " + c + ":Node:node-a:mgmt-port");
        assertThat(nb.get("Logical_Router " + c + ":Cluster:ns1_udn.a_ovn_cluster_router"))
                .contains("name=ns1_udn.a_ovn_cluster_router");
        assertThat(nb.get("Logical_Switch " + c + ":Node:node-a:switch"))
                .contains("name=ns1_udn.a_node-a", "subnet=10.100.0.0/24");
        assertThat(nb.get("Logical_Router_Port " + c + ":Node:node-a:rtos"))
                .contains("name=rtos-ns1_udn.a_node-a", "10.100.0.1/24");
        assertThat(nb.get("Logical_Router_Port " + c + ":Node:node-a:rtots")).contains("name=ns1_udn.a_rtots-node-a");
        assertThat(nb.get("Logical_Switch_Port " + c + ":RemoteZone:node-b:tstor"))
                .contains("name=ns1_udn.a_tstor-node-b", "requested-tnl-key=3");
        assertThat(nb.get("Logical_Switch " + c + ":Cluster:ns1_udn.a_transit_switch"))
                .contains("interconn-ts=ns1_udn.a_transit_switch", "requested-tnl-key=16711688");
        assertThat(nb.get("Logical_Switch_Port " + c + ":Node:node-a:mgmt-port"))
                .contains("name=k8s-ns1_udn.a_node-a");
        DesiredRow router = d.northbound().stream()
                .filter(r -> r.table().equals("Logical_Router"))
                .findFirst()
                .orElseThrow();
        assertThat((Map<String, String>) router.columns().get("external_ids"))
                .containsEntry("k8s.ovn.org/network", "ns1_udn-a")
                .containsEntry("k8s.ovn.org/topology", "layer3")
                .containsEntry("k8s-cluster-router", "yes")
                .containsEntry("k8s.ovn.org/owner-controller", c);
    }
}
