package io.kovn.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kovn.node.gateway.GatewayBridge;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManagementPortTest {
    private static final ManagementPort PORT = new ManagementPort(
            "node-a",
            List.of(IpPrefix.parse("10.244.1.0/24")),
            List.of(IpPrefix.parse("10.244.0.0/16")),
            1400,
            List.of(IpLiterals.parse("172.18.0.2")));

    @Test
    void takesTheSubnetsSecondAddressAndItsMac() {
        assertThat(PORT.addresses()).containsExactly(IpPrefix.parse("10.244.1.2/24"));
        assertThat(PORT.mac()).isEqualTo("0a:58:0a:f4:01:02");
        assertThat(PORT.interfaceName()).isEqualTo("ovn-k8s-mp0");
    }

    @Test
    void ovsPortIsBoundToTheNodesLogicalPort() {
        assertThat(PORT.externalIds()).containsExactly(Map.entry("iface-id", "k8s-node-a"));
    }

    @Test
    void kernelSideIsIdempotentAndRoutesTheClusterThroughTheGatewayFromTheNodeIp() {
        assertThat(PORT.ipLines())
                .containsExactly(
                        "link set dev ovn-k8s-mp0 address 0a:58:0a:f4:01:02 mtu 1400 up",
                        "addr replace 10.244.1.2/24 dev ovn-k8s-mp0",
                        "route replace 10.244.1.0/24 dev ovn-k8s-mp0 proto kernel scope link src 172.18.0.2",
                        "route replace 10.244.0.0/16 via 10.244.1.1 dev ovn-k8s-mp0 src 172.18.0.2");
        assertThat(PORT.sysctls()).containsExactly("net.ipv4.ip_forward=1", "net.ipv4.conf.ovn-k8s-mp0.arp_announce=2");
    }

    @Test
    void dualStackRoutesEachFamilyThroughItsOwnGateway() {
        ManagementPort dual = new ManagementPort(
                "n",
                List.of(IpPrefix.parse("10.244.1.0/24"), IpPrefix.parse("fd00:10:244:2::/64")),
                List.of(IpPrefix.parse("10.244.0.0/16"), IpPrefix.parse("fd00:10:244::/48")),
                1400,
                List.of());
        assertThat(dual.ipLines())
                .contains(
                        "addr replace fd00:10:244:2::2/64 dev ovn-k8s-mp0 nodad",
                        "route replace fd00:10:244::/48 via fd00:10:244:2::1 dev ovn-k8s-mp0");
        assertThat(dual.sysctls())
                .containsExactly(
                        "net.ipv4.ip_forward=1",
                        "net.ipv4.conf.ovn-k8s-mp0.arp_announce=2",
                        "net.ipv6.conf.all.forwarding=1");
    }

    @Test
    void subnetsComeFromTheNodeSubnetsAnnotationOnceWritten() {
        assertThat(ManagementPortSetup.subnetsOf(new NodeBuilder()
                        .withNewMetadata()
                        .withName("a")
                        .endMetadata()
                        .build()))
                .isEmpty();
        assertThat(ManagementPortSetup.subnetsOf(new NodeBuilder()
                        .withNewMetadata()
                        .withName("a")
                        .addToAnnotations("k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.3.0/24\"]}")
                        .endMetadata()
                        .build()))
                .contains(List.of(IpPrefix.parse("10.244.3.0/24")));
        assertThat(ManagementPortSetup.subnetsOf(new NodeBuilder()
                        .withNewMetadata()
                        .withName("a")
                        .addToAnnotations("k8s.ovn.org/node-subnets", "nonsense")
                        .endMetadata()
                        .build()))
                .isEmpty();
    }

    @Test
    void onADualStackNodeHostTrafficTowardPodsLeavesFromTheNodeIpOfEachFamily() {
        GatewayBridge bridge = new GatewayBridge(
                "br-phy",
                "0a:58:ac:1e:00:02",
                List.of(IpPrefix.parse("172.18.0.2/24"), IpPrefix.parse("fd00:afa::2/64")),
                List.of());
        List<InetAddress> nodeIps = ManagementPortSetup.nodeIps("172.18.0.2", Optional.of(bridge));
        assertThat(nodeIps).containsExactly(IpLiterals.parse("172.18.0.2"), IpLiterals.parse("fd00:afa::2"));
        ManagementPort dual = new ManagementPort(
                "n",
                List.of(IpPrefix.parse("10.244.1.0/24"), IpPrefix.parse("fd00:10:244:2::/64")),
                List.of(IpPrefix.parse("10.244.0.0/16"), IpPrefix.parse("fd00:10:244::/48")),
                1400,
                nodeIps);
        assertThat(dual.ipLines())
                .contains(
                        "route replace fd00:10:244::/48 via fd00:10:244:2::1 dev ovn-k8s-mp0 src fd00:afa::2",
                        "route replace 10.244.0.0/16 via 10.244.1.1 dev ovn-k8s-mp0 src 172.18.0.2",
                        // the kernel's connected IPv6 route is replaced only at its own metric
                        "route replace fd00:10:244:2::/64 dev ovn-k8s-mp0 proto kernel scope link src fd00:afa::2 metric 256",
                        "route replace 10.244.1.0/24 dev ovn-k8s-mp0 proto kernel scope link src 172.18.0.2");
    }

    @Test
    void withoutAGatewayBridgeTheNodeIpIsTheEncapIp() {
        assertThat(ManagementPortSetup.nodeIps("172.18.0.2", Optional.empty()))
                .containsExactly(IpLiterals.parse("172.18.0.2"));
    }
}
