package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --enable-network-segmentation=false} in a real zone: the rows of a user-defined network the zone built before
 * are removed as stale, the default network keeps working (a new pod gets its port), and the zone does not wait for
 * UDN/CUDN informers it never starts.
 */
@Tag("real")
class NetworkSegmentationSwitchTest {
    private static final String NODE = "node-a";
    private static final String NET_CONTROLLER = "blue_net-1-network-controller";

    @Test
    void switchedOffANetworksRowsGoAndTheDefaultNetworkStillServesPods() {
        try (ZoneCluster cluster = new ZoneCluster(List.of(NODE))) {
            KubernetesClient client = cluster.client;
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("blue")
                            .withLabels(Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, ""))
                            .endMetadata()
                            .build())
                    .create();
            client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                    .inNamespace("blue")
                    .resource(Serialization.unmarshal("""
                    apiVersion: k8s.ovn.org/v1
                    kind: UserDefinedNetwork
                    metadata: {name: net-1, namespace: blue}
                    spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16}]}}
                    """, GenericKubernetesResource.class))
                    .create();
            await().atMost(ZoneCluster.CONVERGE)
                    .until(() ->
                            !owned(cluster, "Logical_Switch", NET_CONTROLLER).isEmpty());

            ZoneController on = cluster.zones.get(NODE);
            await().atMost(ZoneCluster.CONVERGE).until(on::idle);
            on.close();
            OvnDatabases dbs = cluster.dbs.get(NODE);
            ZoneController off = ZoneController.start(
                    ZoneControllerConfig.of(
                                    NODE, dbs.nb().unixEndpoint(), dbs.sb().unixEndpoint())
                            .withNetworkSegmentation(false),
                    client);
            cluster.zones.put(NODE, off);

            await().atMost(ZoneCluster.CONVERGE).untilAsserted(() -> {
                for (String table : List.of("Logical_Switch", "Logical_Router", "Logical_Switch_Port")) {
                    assertThat(owned(cluster, table, NET_CONTROLLER)).as(table).isEmpty();
                }
            });
            Clusters.pod(client, "default", "web", NODE, false);
            await().atMost(ZoneCluster.CONVERGE)
                    .until(() -> cluster.nbctl(NODE, "--bare", "--columns=name", "list", "Logical_Switch_Port")
                            .contains("default_web"));
            await().atMost(ZoneCluster.CONVERGE).until(off::idle);
        }
    }

    private static List<String> owned(ZoneCluster cluster, String table, String controller) {
        return cluster.nbctl(
                        NODE,
                        "--bare",
                        "--columns=name",
                        "find",
                        table,
                        "external_ids:k8s.ovn.org/owner-controller=" + controller)
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
    }
}
