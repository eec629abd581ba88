package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.NetworkController;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster manager with {@code --enable-network-segmentation=false} and {@code --enable-admin-network-policy=false}
 * on a real control plane: nodes are still allocated, while no network controller or zone condition cleanup is made and
 * a UserDefinedNetwork gets no id and no condition.
 */
@Tag("real")
class ClusterManagerSwitchesTest {
    @Test
    void switchedOffFeaturesGetNoControllerAndTheirObjectsAreLeftAlone() throws Exception {
        KubernetesClient client = SharedCluster.fresh().admin();
        ClusterManagerConfig config =
                ClusterManagerConfig.defaults().withNetworkSegmentation(false).withAdminNetworkPolicies(false);
        try (ClusterManager cm = ClusterManager.start(client, config, (o, w, r, m) -> {})) {
            assertThat(cm.networks()).isNull();
            assertThat(cm.connects()).isNull();
            assertThat(cm.conditionCleanup()).isNull();
            Clusters.node(client, "node-a", "chassis-a", "172.31.0.1", Map.of());
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> Clusters.annotation(client, "node-a", OvnAnnotations.NODE_SUBNETS) != null);

            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("blue")
                            .endMetadata()
                            .build())
                    .create();
            var udn = client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                    .inNamespace("blue")
                    .resource(Serialization.unmarshal("""
                    apiVersion: k8s.ovn.org/v1
                    kind: UserDefinedNetwork
                    metadata: {name: net-1, namespace: blue}
                    spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16}]}}
                    """, GenericKubernetesResource.class));
            udn.create();
            Thread.sleep(2_000); // what an enabled cluster manager does within milliseconds
            GenericKubernetesResource seen = udn.get();
            Map<String, String> annotations = seen.getMetadata().getAnnotations();
            assertThat(annotations == null ? Map.<String, String>of() : annotations)
                    .doesNotContainKey(NetworkController.NETWORK_ID_ANNOTATION);
            assertThat(seen.getAdditionalProperties().get("status")).isNull();
            assertThat(Clusters.annotation(client, "node-a", OvnAnnotations.NODE_SUBNETS))
                    .doesNotContain("blue_net-1");
        }
    }
}
