package io.kovn.controller.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.PodNetworks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PrimaryNetworkAnnotationTest {
    static final List<IpPrefix> CLUSTER = List.of(IpPrefix.parse("10.244.0.0/16"));
    static final List<IpPrefix> SERVICES = List.of(IpPrefix.parse("10.96.0.0/16"));

    @Test
    void theDefaultNetworkIsInfrastructureOnlyAndTheLayer3NetworkCarriesTheGatewayAndTheRoutes() {
        Network udn = new Network(
                "udn-test_l3-primary",
                1,
                Network.Topology.LAYER3,
                Network.Role.PRIMARY,
                List.of(ClusterNetwork.parse("10.20.0.0/16/24")),
                Optional.empty(),
                Network.DEFAULT_UDN_JOIN_SUBNETS);
        PodNetworks a = PrimaryNetworkAnnotation.of(
                List.of(IpPrefix.parse("10.244.0.3/24")),
                CLUSTER,
                "udn-test/l3-primary",
                udn,
                List.of(IpPrefix.parse("10.20.2.5/24")),
                SERVICES);
        // the reference's example (OKEP-5193), in kovn's key order
        assertThat(a.format())
                .isEqualTo("{\"default\":{\"ip_addresses\":[\"10.244.0.3/24\"],\"mac_address\":\"0a:58:0a:f4:00:03\","
                        + "\"gateway_ips\":[],\"routes\":[{\"dest\":\"10.244.0.0/16\",\"nextHop\":\"10.244.0.1\"},"
                        + "{\"dest\":\"100.64.0.0/16\",\"nextHop\":\"10.244.0.1\"}],\"role\":\"infrastructure-locked\"},"
                        + "\"udn-test/l3-primary\":{\"ip_addresses\":[\"10.20.2.5/24\"],\"mac_address\":\"0a:58:0a:14:02:05\","
                        + "\"gateway_ips\":[\"10.20.2.1\"],\"routes\":[{\"dest\":\"10.20.0.0/16\",\"nextHop\":\"10.20.2.1\"},"
                        + "{\"dest\":\"10.96.0.0/16\",\"nextHop\":\"10.20.2.1\"},{\"dest\":\"100.65.0.0/16\",\"nextHop\":\"10.20.2.1\"}],"
                        + "\"role\":\"primary\"}}");
        assertThat(PodNetworks.parse(a.format())).isEqualTo(a);
    }

    @Test
    void aLayer2NetworkRoutesServicesAndItsJoinSubnetOnlyPerFamily() {
        Network l2 = new Network(
                "cluster_udn_red",
                2,
                Network.Topology.LAYER2,
                Network.Role.PRIMARY,
                List.of(
                        new ClusterNetwork(IpPrefix.parse("10.100.0.0/24"), 24),
                        new ClusterNetwork(IpPrefix.parse("fd10::/64"), 64)),
                Optional.empty(),
                Network.DEFAULT_UDN_JOIN_SUBNETS);
        PodNetworks a = PrimaryNetworkAnnotation.of(
                List.of(IpPrefix.parse("10.244.1.7/24")),
                CLUSTER,
                "red-1/red",
                l2,
                List.of(IpPrefix.parse("10.100.0.9/24"), IpPrefix.parse("fd10::9/64")),
                List.of(IpPrefix.parse("10.96.0.0/16"), IpPrefix.parse("fd00:10:96::/112")));
        var entry = a.byNetwork().get("red-1/red");
        assertThat(entry.gatewayIps()).extracting(IpLiterals::format).containsExactly("10.100.0.1", "fd10::1");
        assertThat(entry.routes())
                .extracting(r -> r.dest() + " via " + IpLiterals.format(r.nextHop()))
                .containsExactly(
                        "10.96.0.0/16 via 10.100.0.1",
                        "fd00:10:96::/112 via fd10::1",
                        "100.65.0.0/16 via 10.100.0.1",
                        "fd99::/64 via fd10::1");
        assertThat(a.byNetwork().get("default").routes())
                .as("an IPv4-only default network: no IPv6 routes")
                .extracting(r -> r.dest().toString())
                .containsExactly("10.244.0.0/16", "100.64.0.0/16");
        assertThat(Map.copyOf(a.byNetwork()).keySet()).containsExactlyInAnyOrder("default", "red-1/red");
    }
}
