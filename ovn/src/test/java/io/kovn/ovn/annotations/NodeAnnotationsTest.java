package io.kovn.ovn.annotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeAnnotationsTest {

    @Test
    void nodeSubnetsRoundTripInReferenceFormat() {
        String v = "{\"default\":[\"10.244.0.0/24\"]}";
        NodeSubnets s = NodeSubnets.parse(v);
        assertThat(s.defaultNetwork()).containsExactly(IpPrefix.parse("10.244.0.0/24"));
        assertThat(s.format()).isEqualTo(v);
        String dual = "{\"default\":[\"10.244.0.0/24\",\"fd00:10:244:1::/64\"]}";
        assertThat(NodeSubnets.parse(dual).format()).isEqualTo(dual);
    }

    @Test
    void nodeSubnetsReadsTheLegacySingleStringForm() {
        assertThat(NodeSubnets.parse("{\"default\":\"10.244.0.0/24\"}").format())
                .isEqualTo("{\"default\":[\"10.244.0.0/24\"]}");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "[\"10.244.0.0/24\"]| must be a JSON object",
                "{\"default\":[]}| network \"default\" has no subnets",
                "{\"default\":[\"10.244.0.1/24\"]}| has host bits set (network is 10.244.0.0/24)",
                "{\"default\":[\"10.244.0.0/24\",\"10.245.0.0/24\"]}| more than one ipv4 subnet",
                "{\"default\":[3]}| network \"default\"[0] must be a string, got a number",
                "{\"default\":[\"x\"]}| not a CIDR",
                "{\"default\":[\"10.244.0.0/24\"]} x| invalid JSON",
                "{\"default\":[\"10.244.0.0/24\"],\"default\":[\"10.245.0.0/24\"]}| invalid JSON: Duplicate field",
                "''| annotation is empty",
            })
    void nodeSubnetsErrorsArePrecise(String value, String message) {
        assertThatThrownBy(() -> NodeSubnets.parse(value))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageStartingWith("k8s.ovn.org/node-subnets: ")
                .hasMessageContaining(message.strip());
    }

    @Test
    void nodeIdParsesDecimalInRange() {
        assertThat(NodeId.parse("2").value()).isEqualTo(2);
        assertThat(NodeId.parse("5000").format()).isEqualTo("5000");
        for (String bad : List.of("1", "0", "5001", "02", "-3", " 2", "two", "")) {
            assertThatThrownBy(() -> NodeId.parse(bad))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageStartingWith("k8s.ovn.org/node-id: ");
        }
    }

    @Test
    void transitAddressesFollowTheNodeId() {
        NodeTransitSwitchPortIfaddr a = NodeTransitSwitchPortIfaddr.forNodeId(
                new NodeId(7),
                NodeTransitSwitchPortIfaddr.DEFAULT_V4_NETWORK,
                NodeTransitSwitchPortIfaddr.DEFAULT_V6_NETWORK);
        assertThat(a.format()).isEqualTo("{\"ipv4\":\"100.88.0.7/16\",\"ipv6\":\"fd97::7/64\"}");
        assertThat(NodeTransitSwitchPortIfaddr.parse(a.format())).isEqualTo(a);
        NodeTransitSwitchPortIfaddr big = NodeTransitSwitchPortIfaddr.forNodeId(
                new NodeId(300), NodeTransitSwitchPortIfaddr.DEFAULT_V4_NETWORK, null);
        assertThat(big.format()).isEqualTo("{\"ipv4\":\"100.88.1.44/16\"}");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{}| neither ipv4 nor ipv6",
                "{\"ipv4\":\"fd97::2/64\"}| is not an ipv4 address",
                "{\"ipv4\":\"100.88.0.2\"}| not a CIDR",
                "{\"ipv5\":\"100.88.0.2/16\"}| unknown key \"ipv5\"",
                "{\"ipv4\":7}| ipv4 must be a string",
            })
    void transitErrorsArePrecise(String value, String message) {
        assertThatThrownBy(() -> NodeTransitSwitchPortIfaddr.parse(value))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining(message.strip());
    }

    @Test
    void chassisIdAndEncapIps() {
        assertThat(NodeChassisId.parse("3f1c0a4e-1111-2222-3333-444455556666").format())
                .isEqualTo("3f1c0a4e-1111-2222-3333-444455556666");
        assertThatThrownBy(() -> NodeChassisId.parse("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> NodeChassisId.parse("a b")).hasMessageContaining("not a valid system-id");
        assertThatThrownBy(() -> NodeChassisId.parse(null)).hasMessageContaining("missing");

        assertThat(NodeEncapIps.parse("[\"172.18.0.2\"]").format()).isEqualTo("[\"172.18.0.2\"]");
        assertThat(NodeEncapIps.parse("[\"172.18.0.2\",\"fd00::0:2\"]").texts())
                .containsExactly("172.18.0.2", "fd00::2");
        assertThatThrownBy(() -> NodeEncapIps.parse("[]")).hasMessageContaining("no encap IP");
        assertThatThrownBy(() -> NodeEncapIps.parse("\"172.18.0.2\"")).hasMessageContaining("must be a list");
        assertThatThrownBy(() -> NodeEncapIps.parse("[\"node1.example\"]"))
                .hasMessageContaining("value[0]: not an IP address");
        assertThatThrownBy(() -> NodeEncapIps.parse("[\"1.2.3.4\",\"1.2.3.4\"]"))
                .hasMessageContaining("duplicate");
    }
}
