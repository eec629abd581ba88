package io.kovn.ovn.annotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GatewayAnnotationsTest {

    @Test
    void joinAddressFollowsTheNodeIdInTheJoinNetwork() {
        NodeGatewayRouterLrpIfaddr a = NodeGatewayRouterLrpIfaddr.forNodeId(
                new NodeId(7),
                NodeGatewayRouterLrpIfaddr.DEFAULT_V4_NETWORK,
                NodeGatewayRouterLrpIfaddr.DEFAULT_V6_NETWORK);
        assertThat(a.format()).isEqualTo("{\"ipv4\":\"100.64.0.7/16\",\"ipv6\":\"fd98::7/64\"}");
        assertThat(NodeGatewayRouterLrpIfaddr.parse(a.format())).isEqualTo(a);
        assertThat(NodeGatewayRouterLrpIfaddr.forNodeId(
                                new NodeId(300), NodeGatewayRouterLrpIfaddr.DEFAULT_V4_NETWORK, null)
                        .format())
                .isEqualTo("{\"ipv4\":\"100.64.1.44/16\"}");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{}| neither ipv4 nor ipv6",
                "{\"ipv4\":\"fd98::2/64\"}| is not an ipv4 address",
                "{\"ipv4\":3}| must be a string",
                "{\"ip\":\"100.64.0.2/16\"}| unknown key",
                "[]| must be a JSON object",
                "{| invalid JSON",
            })
    void malformedJoinAddressesAreRefused(String value, String message) {
        assertThatThrownBy(() -> NodeGatewayRouterLrpIfaddr.parse(value))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageStartingWith("k8s.ovn.org/node-gateway-router-lrp-ifaddr: ")
                .hasMessageContaining(message.strip());
    }

    @Test
    void primaryIfaddrRoundTrips() {
        String v = "{\"ipv4\":\"172.30.0.2/24\"}";
        assertThat(NodePrimaryIfaddr.parse(v).format()).isEqualTo(v);
        assertThatThrownBy(() -> NodePrimaryIfaddr.parse("{\"ipv4\":\"x\"}"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageStartingWith("k8s.ovn.org/node-primary-ifaddr: ");
    }

    @Test
    void l3GatewayConfigIsWrittenInTheReferenceForm() {
        L3GatewayConfig c = L3GatewayConfig.shared(
                "br-phy",
                "node-1",
                "0a:58:ac:1e:00:02",
                List.of(IpPrefix.parse("172.30.0.2/24")),
                List.of(IpLiterals.parse("172.30.0.254")));
        assertThat(c.interfaceId()).isEqualTo("br-phy_node-1");
        assertThat(c.format())
                .isEqualTo(
                        "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"br-phy\","
                                + "\"interface-id\":\"br-phy_node-1\",\"mac-address\":\"0a:58:ac:1e:00:02\","
                                + "\"ip-addresses\":[\"172.30.0.2/24\"],\"ip-address\":\"172.30.0.2/24\","
                                + "\"next-hops\":[\"172.30.0.254\"],\"next-hop\":\"172.30.0.254\",\"node-port-enable\":\"true\"}}");
        assertThat(L3GatewayConfig.parse(c.format())).isEqualTo(c);
        assertThat(c.nextHopOf(IpFamily.IPV4)).contains(IpLiterals.parse("172.30.0.254"));
        assertThat(c.nextHopOf(IpFamily.IPV6)).isEmpty();
    }

    @Test
    void l3GatewayConfigReadsTheSingularFormsAndTheDisabledMode() {
        L3GatewayConfig c = L3GatewayConfig.parse("{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"breth0\","
                + "\"interface-id\":\"breth0_n\",\"mac-address\":\"02:42:ac:12:00:02\",\"ip-address\":\"172.18.0.2/16\","
                + "\"next-hop\":\"172.18.0.1\",\"node-port-enable\":\"true\",\"vlan-id\":\"0\"}}");
        assertThat(c.ipAddresses()).containsExactly(IpPrefix.parse("172.18.0.2/16"));
        assertThat(c.nextHops()).containsExactly(IpLiterals.parse("172.18.0.1"));
        assertThat(L3GatewayConfig.parse("{\"default\":{\"mode\":\"disabled\"}}")
                        .mode())
                .isEqualTo("disabled");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"default\":{\"mode\":\"magic\"}}| unknown gateway mode",
                "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"b\",\"interface-id\":\"b_n\",\"mac-address\":\"zz\",\"ip-addresses\":[\"1.2.3.4/24\"]}}| mac-address",
                "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"b\",\"interface-id\":\"b_n\",\"mac-address\":\"02:42:ac:12:00:02\"}}| ip-addresses is missing",
                "{\"default\":{\"mode\":\"shared\",\"interface-id\":\"b_n\",\"mac-address\":\"02:42:ac:12:00:02\",\"ip-addresses\":[\"1.2.3.4/24\"]}}| bridge-id is missing",
                "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"b\",\"interface-id\":\"b_n\",\"mac-address\":\"02:42:ac:12:00:02\",\"ip-addresses\":[\"1.2.3.4/24\"],\"next-hops\":[\"x\"]}}| next-hops",
                "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"b\",\"interface-id\":\"b_n\",\"mac-address\":\"02:42:ac:12:00:02\",\"ip-addresses\":\"1.2.3.4/24\"}}| must be a list",
                "{\"other\":{}}| network \"default\" must be an object",
                "{\"default\":{}}| mode must be a string",
                "''| annotation is empty",
            })
    void malformedL3GatewayConfigsAreRefused(String value, String message) {
        assertThatThrownBy(() -> L3GatewayConfig.parse(value))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageStartingWith("k8s.ovn.org/l3-gateway-config: ")
                .hasMessageContaining(message.strip());
    }
}
