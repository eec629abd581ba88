package io.kovn.k8s.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.crd.CrdCatalog;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shared real control plane: kovn's CRDs, identities by certificate and by token, and a reset that empties it. */
@Tag("real")
class LocalClusterTest {

    @Test
    void servesKovnsCrdsAndKnowsWhoIsCalling() {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient admin = cluster.admin();
        assertThat(admin.apiextensions().v1().customResourceDefinitions().list().getItems())
                .extracting(c -> c.getMetadata().getName())
                .containsAll(CrdCatalog.load().stream()
                        .map(c -> c.getMetadata().getName())
                        .toList());
        try (KubernetesClient node = cluster.clientAs("system:ovn-node:n1", "system:ovn-nodes")) {
            var me = LocalCluster.whoAmI(node);
            assertThat(me.getUsername()).isEqualTo("system:ovn-node:n1");
            assertThat(me.getGroups()).contains("system:ovn-nodes", "system:authenticated");
            KubernetesClientException refused = catchThrowableOfType(
                    KubernetesClientException.class,
                    () -> node.secrets().inNamespace("kube-system").list());
            assertThat(refused.getCode()).isEqualTo(403);
            assertThat(refused.getMessage()).contains("User \"system:ovn-node:n1\" cannot list resource \"secrets\"");
        }
    }

    @Test
    void aServiceAccountTokenAuthenticatesAsTheAccount() {
        LocalCluster cluster = SharedCluster.fresh();
        LocalCluster.createNamespace(cluster.admin(), "tokens", Map.of());
        cluster.admin()
                .serviceAccounts()
                .inNamespace("tokens")
                .resource(new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName("robot")
                        .endMetadata()
                        .build())
                .create();
        try (KubernetesClient robot = KubeClients.forConfig(cluster.serviceAccountConfig("tokens", "robot"))) {
            assertThat(LocalCluster.whoAmI(robot).getUsername()).isEqualTo("system:serviceaccount:tokens:robot");
        }
    }

    @Test
    void aResetLeavesAnEmptyClusterThatTakesTheSameNamesAgain() {
        for (int round = 0; round < 2; round++) {
            LocalCluster cluster = SharedCluster.fresh();
            KubernetesClient admin = cluster.admin();
            assertThat(admin.nodes().list().getItems()).isEmpty();
            assertThat(admin.namespaces().withName("again").get()).isNull();
            admin.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("n1")
                            .endMetadata()
                            .build())
                    .create();
            LocalCluster.createNamespace(admin, "again", Map.of());
            admin.pods()
                    .inNamespace("again")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("p")
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("n1")
                            .addNewContainer()
                            .withName("c")
                            .withImage("x")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
        }
    }

    @Test
    void servicesGetClusterIpsOfBothFamiliesWhenTheyAskForThem() {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient admin = cluster.admin();
        LocalCluster.createNamespace(admin, "dual", Map.of());
        var svc = admin.services()
                .inNamespace("dual")
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName("both")
                        .endMetadata()
                        .withNewSpec()
                        .withIpFamilyPolicy("RequireDualStack")
                        .addNewPort()
                        .withPort(80)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        assertThat(svc.getSpec().getClusterIPs()).hasSize(2);
        assertThat(svc.getSpec().getClusterIPs().get(0)).startsWith("10.96.");
        assertThat(svc.getSpec().getClusterIPs().get(1)).startsWith("fd00:10:96::");
    }
}
