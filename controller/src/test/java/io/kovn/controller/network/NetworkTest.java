package io.kovn.controller.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovn.annotations.IpPrefix;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NetworkTest {
    static Network layer2(String... cidrs) {
        return new Network(
                "cluster_udn_flat",
                3,
                Network.Topology.LAYER2,
                Network.Role.PRIMARY,
                Arrays.stream(cidrs)
                        .map(c -> new ClusterNetwork(
                                IpPrefix.parse(c), IpPrefix.parse(c).length()))
                        .toList(),
                Optional.empty(),
                Network.DEFAULT_UDN_JOIN_SUBNETS);
    }

    @Test
    void aLayer3NetworksNodeRangesAreItsNodeSubnets() {
        Network n = new Network(
                "blue_net",
                1,
                Network.Topology.LAYER3,
                Network.Role.PRIMARY,
                List.of(ClusterNetwork.parse("10.100.0.0/16/24")),
                Optional.empty(),
                Network.DEFAULT_UDN_JOIN_SUBNETS);
        assertThat(n.nodeRanges()).isEqualTo(n.subnets());
    }

    @Test
    void aLayer2NetworksNodeRangesComeFromItsFirst32768AddressesSoAnOffsetIsATunnelKey() {
        assertThat(layer2("10.120.0.0/16").nodeRanges()).containsExactly(ClusterNetwork.parse("10.120.0.0/17/23"));
        assertThat(layer2("10.120.0.0/24").nodeRanges()).containsExactly(ClusterNetwork.parse("10.120.0.0/24/28"));
        assertThat(layer2("10.120.0.0/20", "fd20::/64").nodeRanges())
                .containsExactly(ClusterNetwork.parse("10.120.0.0/20/26"), ClusterNetwork.parse("fd20::/113/119"));
        assertThat(layer2("10.120.0.0/30").nodeRanges()).containsExactly(ClusterNetwork.parse("10.120.0.0/30/30"));
        // every range of every network shape: at most 64 ranges of at most 512 addresses, keys below 2^15
        for (int len = 8; len <= 30; len++) {
            ClusterNetwork r = layer2("10.0.0.0/" + len).nodeRanges().getFirst();
            assertThat(r.hostSubnetLength() - r.cidr().length()).as("/" + len).isLessThanOrEqualTo(6);
            assertThat(32 - r.hostSubnetLength()).as("/" + len).isLessThanOrEqualTo(9);
            assertThat(32 - r.cidr().length()).as("/" + len).isLessThanOrEqualTo(15);
        }
    }

    @Test
    void aLayer2PodsTunnelKeyIsItsAddressOffsetTheSameInEveryZone() throws Exception {
        Network n = layer2("10.120.0.0/16", "fd20::/64");
        assertThat(n.tunnelKey(InetAddress.getByName("10.120.0.3"))).isEqualTo(3);
        assertThat(n.tunnelKey(InetAddress.getByName("10.120.127.254"))).isEqualTo(32766);
        assertThat(n.tunnelKey(InetAddress.getByName("fd20::7"))).isEqualTo(7);
        assertThatThrownBy(() -> n.tunnelKey(InetAddress.getByName("fd20::1:5")))
                .hasMessageContaining("first 32,768");
        assertThatThrownBy(() -> n.tunnelKey(InetAddress.getByName("10.120.128.1")))
                .hasMessageContaining("first 32,768");
        assertThatThrownBy(() -> n.tunnelKey(InetAddress.getByName("10.121.0.1")))
                .hasMessageContaining("outside");
        Set<Long> keys = new HashSet<>();
        for (int i = 3; i < 300; i++)
            keys.add(n.tunnelKey(InetAddress.getByName("10.120." + (i / 256) + "." + (i % 256))));
        assertThat(keys).hasSize(297);
    }
}
