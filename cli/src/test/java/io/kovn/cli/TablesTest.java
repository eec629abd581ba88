package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

class TablesTest {
    @Test
    void aNetworkShowsItsIdTopologyAndWhyItWasRefusedOrCreated() {
        GenericKubernetesResource refused = Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: ClusterUserDefinedNetwork
                metadata: {name: shared}
                spec: {namespaceSelector: {}, network: {topology: Layer3}}
                status:
                  conditions:
                  - {type: NetworkCreated, status: "False", reason: SubnetOverlap, message: "subnet 10.244.0.0/20 overlaps"}
                """, GenericKubernetesResource.class);
        GenericKubernetesResource created = Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: ClusterUserDefinedNetwork
                metadata: {name: red, annotations: {k8s.ovn.org/network-id: "3"}}
                spec: {namespaceSelector: {}, network: {topology: Layer2}}
                status:
                  conditions:
                  - {type: NetworkCreated, status: "True", reason: NetworkCreated, message: "network cluster_udn_red"}
                """, GenericKubernetesResource.class);
        assertThat(Tables.render(Kinds.CLUSTER_USER_DEFINED_NETWORK, List.of(refused, created), false, false))
                .isEqualTo("""
                NAME     ID   TOPOLOGY   CREATED               MESSAGE
                shared        Layer3     False/SubnetOverlap   subnet 10.244.0.0/20 overlaps
                red      3    Layer2     True/NetworkCreated   network cluster_udn_red
                """);
    }
}
