package io.kovn.ovn.annotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodNetworksTest {
    static final String REFERENCE = "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],"
            + "\"mac_address\":\"0a:58:0a:f4:01:03\",\"gateway_ips\":[\"10.244.1.1\"],\"routes\":[],\"role\":\"primary\"}}";

    @Test
    void formatsExactlyAsTheReference() {
        PodNetwork n = PodNetwork.primary(
                List.of(IpPrefix.parse("10.244.1.3/24")),
                MacAddresses.fromIp(IpLiterals.parse("10.244.1.3")),
                List.of(IpLiterals.parse("10.244.1.1")));
        assertThat(PodNetworks.ofDefault(n).format()).isEqualTo(REFERENCE);
        assertThat(PodNetworks.parse(REFERENCE)).isEqualTo(PodNetworks.ofDefault(n));
    }

    @Test
    void dualStackWithRoutesRoundTrips() {
        String v = "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\",\"fd00:10:244:2::3/64\"],"
                + "\"mac_address\":\"0a:58:0a:f4:01:03\",\"gateway_ips\":[\"10.244.1.1\",\"fd00:10:244:2::1\"],"
                + "\"routes\":[{\"dest\":\"10.96.0.0/16\",\"nextHop\":\"10.244.1.1\"}],\"role\":\"primary\"}}";
        assertThat(PodNetworks.parse(v).format()).isEqualTo(v);
    }

    @Test
    void readsLegacyKeysAndIgnoresUnknownOnes() {
        String v = "{\"default\":{\"ip_address\":\"10.244.1.3/24\",\"mac_address\":\"0a:58:0a:f4:01:03\","
                + "\"gateway_ip\":\"10.244.1.1\",\"tunnel_id\":4}}";
        assertThat(PodNetworks.parse(v).format()).isEqualTo(REFERENCE);
    }

    @Test
    void macIsTheIpv4BytesAfter0a58() {
        assertThat(MacAddresses.fromIp(IpLiterals.parse("10.244.255.254"))).isEqualTo("0a:58:0a:f4:ff:fe");
        assertThat(MacAddresses.fromIp(IpLiterals.parse("fd00::a:b0c:d0e"))).isEqualTo("0a:58:0b:0c:0d:0e");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"default\":{\"mac_address\":\"0a:58:0a:f4:01:03\"}}| network \"default\" has no ip_addresses",
                "{\"default\":{\"ip_addresses\":[\"10.244.1.3\"],\"mac_address\":\"0a:58:0a:f4:01:03\"}}| ip_addresses: not a CIDR",
                "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"]}}| mac_address must be a string, got nothing",
                "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0A:58:0a:f4:01:03\"}}| not a lower-case MAC",
                "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0a:58:0a:f4:01:03\",\"gateway_ips\":[\"x\"]}}| gateway_ips: not an IP address",
                "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0a:58:0a:f4:01:03\",\"routes\":[{\"dest\":\"10.96.0.0/16\",\"nextHop\":\"fd00::1\"}]}}| routes[0]: route 10.96.0.0/16 via fd00::1 mixes families",
                "{\"default\":[]}| network \"default\" must be an object",
                "null| must be a JSON object",
            })
    void errorsNameNetworkAndField(String value, String message) {
        assertThatThrownBy(() -> PodNetworks.parse(value))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageStartingWith("k8s.ovn.org/pod-networks: ")
                .hasMessageContaining(message.strip());
    }
}
