package io.kovn.controller.connect;

import static io.kovn.controller.connect.ConnectedPairsTest.layer2;
import static io.kovn.controller.connect.ConnectedPairsTest.layer3;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.Network;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.PolicyEvaluator.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

class NetworkConnectionsTest {
    static final Network A = layer3("a_net", 1, "10.140.0.0/16/24");
    static final Network B = layer3("b_net", 2, "10.141.0.0/16/24");
    static final Network C = layer2("cluster_udn_c", 3, "10.150.0.0/24");
    static final Network E = layer3("e_net", 4, "10.140.0.0/16/24"); // overlaps A

    static GenericKubernetesResource cnc(String name, String subnets, String connectivity, String status) {
        return Serialization.unmarshal(
                """
                apiVersion: k8s.ovn.org/v1
                kind: ClusterNetworkConnect
                metadata:
                  name: %s
                  annotations: {k8s.ovn.org/network-connect-subnet: '%s'}
                spec:
                  networkSelectors:
                  - networkSelectionType: ClusterUserDefinedNetworks
                    clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {connect: "yes"}}}
                  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]
                  connectivity: [%s]
                status: {conditions: [%s]}
                """.formatted(name, subnets, connectivity, status), GenericKubernetesResource.class);
    }

    @Test
    void pairsOfTheAnnotatedNetworksExceptOverlappingOnesForPodsOrServicesOnly() {
        var pods = cnc(
                "c1",
                "{\"layer3_1\":{\"ipv4\":\"192.168.0.0/24\"},\"layer2_3\":{\"ipv4\":\"192.168.1.0/31\"},"
                        + "\"layer3_4\":{\"ipv4\":\"192.168.2.0/24\"}}",
                "PodNetwork",
                "");
        var services = cnc(
                "c2",
                "{\"layer3_2\":{\"ipv4\":\"192.169.0.0/24\"},\"layer2_3\":{\"ipv4\":\"192.169.1.0/31\"}}",
                "ServiceNetwork",
                "");
        var off = cnc(
                "c3",
                "{\"layer3_1\":{\"ipv4\":\"192.170.0.0/24\"},\"layer3_2\":{\"ipv4\":\"192.170.1.0/24\"}}",
                "PodNetwork",
                "{type: Accepted, status: 'False', reason: FeatureDisabled, message: off, lastTransitionTime: '2026-01-01T00:00:00Z'}");
        var connections = NetworkConnections.of(List.of(pods, services, off), List.of(A, B, C, E));
        // E overlaps the older A: connected to nothing; C's connection to B is for services only
        assertThat(connections)
                .containsOnlyKeys(
                        PolicyEvaluator.pairKey("a_net", "cluster_udn_c"),
                        PolicyEvaluator.pairKey("b_net", "cluster_udn_c"));
        assertThat(connections.get(PolicyEvaluator.pairKey("cluster_udn_c", "a_net")))
                .isEqualTo(new Connection("c1", true));
        assertThat(connections.get(PolicyEvaluator.pairKey("b_net", "cluster_udn_c")))
                .isEqualTo(new Connection("c2", false));
    }

    @Test
    void unreadableAnnotationsConnectNothing() {
        assertThat(NetworkConnections.of(List.of(cnc("x", "{not json", "PodNetwork", "")), List.of(A, B)))
                .isEmpty();
    }
}
