package io.kovn.node.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SharedGatewayFlowsTest {
    static final SharedGatewayFlows FLOWS =
            new SharedGatewayFlows("1", "2", "0a:58:ac:1e:00:02", List.of(IpPrefix.parse("172.30.0.2/24")));

    /** Whether the masks cover exactly the range: every port in it matches one mask, none outside matches. */
    static boolean covers(List<String> masks, int port) {
        return masks.stream().anyMatch(m -> {
            int value = Integer.decode(m.substring(0, m.indexOf('/')));
            int mask = Integer.decode(m.substring(m.indexOf('/') + 1));
            return (port & mask) == value;
        });
    }

    @Test
    void theNodePortRangeIsCoveredExactlyByFewMasks() {
        List<String> masks = PortRangeMasks.of(30000, 32767);
        assertThat(masks).hasSizeLessThanOrEqualTo(8).startsWith("0x7530/0xfff0");
        assertThat(IntStream.rangeClosed(0, 65535).filter(p -> covers(masks, p)))
                .containsExactlyElementsOf(
                        IntStream.rangeClosed(30000, 32767).boxed().toList());
        assertThat(PortRangeMasks.of(0, 65535)).containsExactly("0x0000/0x0000");
        assertThat(PortRangeMasks.of(80, 80)).containsExactly("0x0050/0xffff");
        assertThatThrownBy(() -> PortRangeMasks.of(5, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void connectionsAreMarkedByWhoOpenedThemAndRepliesGoBackThere() {
        assertThat(FLOWS.flows())
                .contains(
                        "cookie=0xdeff105, table=0, priority=100, in_port=2, ip, actions=ct(commit, zone=64000, exec(set_field:0x1->ct_mark)), output:1",
                        "cookie=0xdeff105, table=0, priority=100, in_port=LOCAL, ip, actions=ct(commit, zone=64000, exec(set_field:0x2->ct_mark)), output:1",
                        "cookie=0xdeff105, table=0, priority=50, in_port=1, ip, actions=ct(zone=64000, table=1)",
                        "cookie=0xdeff105, table=1, priority=100, ip, ct_state=+trk+est, ct_mark=0x1, actions=output:2",
                        "cookie=0xdeff105, table=1, priority=100, ip, ct_state=+trk+rel, ct_mark=0x1, actions=output:2",
                        "cookie=0xdeff105, table=1, priority=100, ip, ct_state=+trk+est, ct_mark=0x2, actions=output:LOCAL",
                        "cookie=0xdeff105, table=1, priority=100, ip, ct_state=+trk+rel, ct_mark=0x2, actions=output:LOCAL");
    }

    @Test
    void arpAndGeneveAndNewConnectionsGoToTheHostExceptNodePorts() {
        assertThat(FLOWS.flows())
                .contains(
                        "cookie=0xdeff105, table=0, priority=10, in_port=1, dl_dst=0a:58:ac:1e:00:02, actions=output:2, output:LOCAL",
                        "cookie=0xdeff105, table=0, priority=205, in_port=1, dl_dst=0a:58:ac:1e:00:02, udp, udp_dst=6081, actions=output:LOCAL",
                        "cookie=0xdeff105, table=0, priority=200, in_port=LOCAL, udp, udp_dst=6081, actions=output:1",
                        "cookie=0xdeff105, table=1, priority=10, dl_dst=0a:58:ac:1e:00:02, actions=output:LOCAL",
                        "cookie=0xdeff105, table=1, priority=15, tcp, nw_dst=172.30.0.2, tp_dst=0x7530/0xfff0, actions=output:2",
                        "cookie=0xdeff105, table=0, priority=0, actions=NORMAL");
        int perProtocol = PortRangeMasks.of(30000, 32767).size();
        assertThat(FLOWS.flows())
                .filteredOn(f -> f.contains("priority=15,"))
                .hasSize(3 * perProtocol)
                .allMatch(f -> f.endsWith("actions=output:2") && f.contains("nw_dst=172.30.0.2"));
        assertThat(FLOWS.flows())
                .allMatch(f -> f.startsWith("cookie=0xdeff105, "))
                .doesNotHaveDuplicates();
        assertThat(FLOWS.text()).endsWith("\n").doesNotContain("ipv6");
    }

    @Test
    void gatewayBridgeFactsAreReadFromIpOutput() {
        String addrs = """
                1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
                4: br-phy    inet 172.30.0.2/24 scope global br-phy\\       valid_lft forever preferred_lft forever
                5: ovn-k8s-mp0    inet 10.244.0.2/24 scope global ovn-k8s-mp0\\       valid_lft forever
                """;
        assertThat(GatewayBridge.holderOf(addrs, IpLiterals.parse("172.30.0.2")))
                .hasValue(new GatewayBridge.Holder("br-phy", IpPrefix.parse("172.30.0.2/24")));
        assertThat(GatewayBridge.holderOf(addrs, IpLiterals.parse("172.30.0.9")))
                .isEmpty();
        String dual = addrs + """
                4: br-phy    inet6 fd00:afa:0::2/64 scope global \\       valid_lft forever preferred_lft forever
                4: br-phy    inet6 fe80::1/64 scope link \\       valid_lft forever preferred_lft forever
                """;
        assertThat(GatewayBridge.globalAddressesOf(dual, "br-phy"))
                .containsExactly(IpPrefix.parse("172.30.0.2/24"), IpPrefix.parse("fd00:afa:0::2/64"));
        assertThat(GatewayBridge.defaultGateways(
                        "default via 172.30.0.254 dev br-phy \ndefault via 10.0.0.1 dev eth9\n", "br-phy"))
                .containsExactly(IpLiterals.parse("172.30.0.254"));
        assertThat(GatewayBridge.defaultGateways("", "br-phy")).isEmpty();
        GatewayBridge b = new GatewayBridge(
                "br-phy",
                "0a:58:ac:1e:00:02",
                List.of(IpPrefix.parse("172.30.0.2/24")),
                List.of(IpLiterals.parse("172.30.0.254")));
        assertThat(b.l3GatewayConfig("node-1").interfaceId()).isEqualTo("br-phy_node-1");
        assertThat(b.primaryIfaddr().format()).isEqualTo("{\"ipv4\":\"172.30.0.2/24\"}");
        assertThat(b.bridgeMappings()).isEqualTo("physnet:br-phy");
    }
}
