package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.identity.DeployManifests;
import io.kovn.identity.IdentityService;
import io.kovn.identity.bootstrap.NodeCredentials;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.runtime.testing.OvnDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kovn node} in-process with the node agent disabled, against a real zone NB/SB and a real API server (the
 * cluster manager run by {@code kovn cluster-manager}), as the node's own identity with deploy/'s RBAC: it programs the
 * zone's topology rows for the local and a remote node and the local pods, answers /healthz and /metrics (the
 * controllers' runtime metrics included), and stops cleanly.
 */
@Tag("real")
class NodeCommandTest {
    static final Duration CONVERGE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void programsTheZoneTopologyFromTheClusterAndServesHealth() throws Exception {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient client = cluster.admin();
        try (OvnDatabases zone = OvnDatabases.start(OvnDatabases.Config.nbSb())) {
            Path kubeconfig = cluster.adminKubeconfig();
            node(client, "node-a", "chassis-a", "172.31.0.1");
            node(client, "node-b", "chassis-b", "172.31.0.2");
            LocalCluster.awaitDefaultServiceAccount(client, "default");
            client.pods()
                    .inNamespace("default")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("web")
                            .withNamespace("default")
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("node-a")
                            .addNewContainer()
                            .withName("c")
                            .withImage("x")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();

            ClusterManagerCommand cm = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                    "cluster-manager",
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--lease-namespace",
                    "kube-system",
                    "--metrics-address",
                    "127.0.0.1:0"));
            NodeCommand node = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                    "node",
                    "--node-name",
                    "node-a",
                    "--kubeconfig",
                    nodeKubeconfig(cluster, "node-a").toString(),
                    "--nb",
                    zone.nb().unixEndpoint(),
                    "--sb",
                    zone.sb().unixEndpoint(),
                    "--no-node-agent",
                    "--metrics-address",
                    "127.0.0.1:0"));
            try (ClusterManagerCommand.Running ignored = cm.start(Map.of());
                    NodeCommand.Running running = node.start(Map.of())) {
                await().atMost(CONVERGE)
                        .untilAsserted(() -> assertThat(names(zone, "Logical_Switch_Port"))
                                .contains("stor-node-a", "tstor-node-a", "tstor-node-b", "default_web"));
                assertThat(names(zone, "Logical_Router")).contains("ovn_cluster_router");
                assertThat(names(zone, "Logical_Switch")).contains("node-a", "transit_switch");
                await().atMost(CONVERGE).until(() -> podNetworks(client) != null);
                assertThat(podNetworks(client)).contains("\"default\"").contains("\"mac_address\":\"0a:58:");

                int port = running.metrics().port();
                assertThat(Http.get(port, "/healthz")).isEqualTo(new Http.Reply(200, "ok\n"));
                assertThat(Http.get(port, "/livez")).isEqualTo(new Http.Reply(200, "ok\n"));
                await().atMost(CONVERGE).until(() -> Http.get(port, "/readyz").equals(new Http.Reply(200, "ok\n")));
                assertThat(Http.get(port, "/metrics").body()).contains("ovnkube_controller_admin_network_policies");
                // the zone's and the policy controller's runtime metrics share the process's registry
                await().atMost(CONVERGE)
                        .untilAsserted(() -> assertThat(
                                        Http.get(port, "/metrics").body())
                                .contains(
                                        series("kovn_controller_queue_to_done_seconds_count", "zone-node-a"),
                                        series("kovn_controller_reconcile_total", "zone-node-a"),
                                        series("kovn_controller_queue_to_done_seconds_count", "policies-node-a"),
                                        series("kovn_controller_reconcile_total", "policies-node-a")));
                assertThat(running.parts().zone().zone()).isEqualTo("node-a");
            }
        }
    }

    @Test
    void withACertDirTheNodeObtainsItsOwnCertificateThroughTheCsrApprover() throws Exception {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient admin = cluster.admin();
        try (OvnDatabases zone = OvnDatabases.start(OvnDatabases.Config.nbSb())) {
            // kube-controller-manager signs what the approver approves (the cluster CA, which kube-apiserver trusts)
            IdentityService.Options identity = new IdentityService.Options();
            identity.disableWebhook = true;
            node(admin, "node-a", "chassis-a", "172.31.0.1");
            grantNodeAccess(cluster);
            // The bootstrap identity is the kubelet's, which kube-apiserver records as the CSR's requester.
            Config kubelet = cluster.configFor("system:node:node-a", "system:nodes");
            Path pki = dir.resolve("pki");
            NodeCommand node = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                    "node",
                    "--node-name",
                    "node-a",
                    "--nb",
                    zone.nb().unixEndpoint(),
                    "--sb",
                    zone.sb().unixEndpoint(),
                    "--cert-dir",
                    pki.toString(),
                    "--cert-expiration",
                    "2h",
                    "--no-node-agent",
                    "--metrics-address",
                    "127.0.0.1:0"));
            try (IdentityService ignored = IdentityService.start(identity, admin);
                    NodeCommand.Running running = node.start(kubelet)) {
                NodeCredentials credentials = running.bootstrap().current();
                assertThat(credentials.subject().commonName()).isEqualTo("system:ovn-node:node-a");
                assertThat(credentials.notAfter())
                        .isBefore(Instant.now().plus(Duration.ofHours(2).plusMinutes(5)));
                try (Stream<Path> files = Files.list(pki)) {
                    assertThat(files.count()).isGreaterThanOrEqualTo(2); // key and certificate kept for restarts
                }
                var csrs = admin.certificates()
                        .v1()
                        .certificateSigningRequests()
                        .list()
                        .getItems();
                assertThat(csrs).singleElement().satisfies(csr -> {
                    assertThat(csr.getSpec().getUsername()).isEqualTo("system:node:node-a");
                    assertThat(csr.getStatus().getConditions())
                            .anyMatch(c -> c.getType().equals("Approved"));
                });
                // the controllers run on the node's certificate, not on the kubelet's credentials
                assertThat(running.bootstrap().client().getConfiguration().getClientCertData())
                        .isNotBlank();
                await().atMost(CONVERGE).until(() -> running.parts().healthy());
            }
        }
    }

    @Test
    void theNodeAgentNeedsAnEncapIp() {
        NodeCommand node = CommandLineParsingTest.command(
                CommandLineParsingTest.parse("node", "--node-name", "a", "--nb", "unix:/n", "--sb", "unix:/s"));
        Assertions.assertThatThrownBy(() -> node.start(Map.of())).hasMessageContaining("--encap-ip is required");
    }

    /**
     * A kubeconfig for {@code node}'s own identity ({@code system:ovn-node:<node>} in {@code system:ovn-nodes}, what
     * the CSR approver issues), with deploy/'s RBAC in place.
     */
    static Path nodeKubeconfig(LocalCluster cluster, String node) {
        grantNodeAccess(cluster);
        return cluster.kubeconfigFor("system:ovn-node:" + node, "system:ovn-nodes");
    }

    /** Applies deploy/'s namespaces, ServiceAccounts and RBAC, as an operator installs them. */
    static void grantNodeAccess(LocalCluster cluster) {
        DeployManifests.apply(cluster.admin(), DeployManifests.access(DeployManifestsTest.DEPLOY));
    }

    /** A node as the node agent leaves it: chassis id and encap IP published. */
    static void node(KubernetesClient client, String name, String chassis, String encapIp) {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), """
                {"metadata":{"annotations":{"%s":"%s","%s":"[\\"%s\\"]"}}}""".formatted(
                        OvnAnnotations.NODE_CHASSIS_ID, chassis, OvnAnnotations.NODE_ENCAP_IPS, encapIp));
    }

    /** The start of a controller-runtime series of {@code controller} in the Prometheus text format. */
    static String series(String metric, String controller) {
        return "\n" + metric + "{controller=\"" + controller + "\",result=\"";
    }

    static List<String> names(OvnDatabases zone, String table) {
        return Arrays.stream(
                        zone.nbctl("--bare", "--columns=name", "list", table).split("\\s+"))
                .filter(s -> !s.isEmpty())
                .toList();
    }

    static String podNetworks(KubernetesClient client) {
        var annotations = client.pods()
                .inNamespace("default")
                .withName("web")
                .get()
                .getMetadata()
                .getAnnotations();
        return annotations == null ? null : annotations.get(OvnAnnotations.POD_NETWORKS);
    }
}
