package io.kovn.controller.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.network.ClusterNetwork;
import io.kovn.controller.network.Network;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectedPairsTest {
    static Network layer3(String name, int id, String... subnets) {
        return new Network(
                name,
                id,
                Network.Topology.LAYER3,
                Network.Role.PRIMARY,
                Arrays.stream(subnets).map(ClusterNetwork::parse).toList(),
                Optional.empty(),
                Network.DEFAULT_UDN_JOIN_SUBNETS);
    }

    static Network layer2(String name, int id, String... subnets) {
        return new Network(
                name,
                id,
                Network.Topology.LAYER2,
                Network.Role.PRIMARY,
                Arrays.stream(subnets)
                        .map(s -> ClusterNetwork.parse(s + "/" + s.substring(s.indexOf('/') + 1)))
                        .toList(),
                Optional.empty(),
                Network.DEFAULT_UDN_JOIN_SUBNETS);
    }

    final Network blue = layer3("blue_net", 1, "10.128.0.0/16/24");
    final Network green = layer2("cluster_udn_green", 2, "10.128.0.0/24");
    final Network red = layer3("red_net", 3, "10.130.0.0/16/24", "fd10::/48/64");
    final Network black = layer2("cluster_udn_black", 4, "10.131.0.0/24", "fd10::/64");

    @Test
    void overlappingPairsAreListedInIdOrderWhateverTheInputOrder() {
        assertThat(ConnectedPairs.overlapping(List.of(black, green, red, blue)))
                .containsExactly(new ConnectedPairs.Pair(blue, green), new ConnectedPairs.Pair(red, black));
        assertThat(ConnectedPairs.overlapping(List.of(blue, red))).isEmpty();
        assertThat(ConnectedPairs.overlapping(List.of())).isEmpty();
    }

    @Test
    void connectsDistinctSelectedNetworksThatDoNotOverlap() {
        List<Network> selected = List.of(blue, green, red);
        assertThat(ConnectedPairs.connects(blue, red, selected)).isTrue();
        assertThat(ConnectedPairs.connects(blue, green, selected))
                .as("overlapping")
                .isFalse();
        assertThat(ConnectedPairs.connects(blue, blue, selected)).as("itself").isFalse();
        assertThat(ConnectedPairs.connects(blue, black, selected))
                .as("black is not selected")
                .isFalse();
        // green overlaps the older blue: connected to nothing, red included (red could not tell green from blue)
        assertThat(ConnectedPairs.connects(red, green, selected))
                .as("green is shadowed by blue")
                .isFalse();
        assertThat(ConnectedPairs.shadowed(green, selected)).isTrue();
        assertThat(ConnectedPairs.shadowed(blue, selected)).isFalse();
    }
}
