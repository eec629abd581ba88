package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.clustermanager.ClusterManagerMain;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code kovn cluster-manager} as its container runs it, in-process against a real API server through a kubeconfig
 * file: it takes the Lease, allocates for the nodes, serves /metrics and /healthz, and releases the Lease when stopped.
 */
@Tag("real")
class ClusterManagerCommandTest {
    @Test
    void allocatesNodesThroughAKubeconfigAndServesMetrics() throws Exception {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient client = cluster.admin();
        String kubeconfig = cluster.adminKubeconfig().toString();
        for (String n : new String[] {"worker-1", "worker-2"}) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(n)
                            .endMetadata()
                            .build())
                    .create();
        }
        ClusterManagerCommand command = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                "cluster-manager",
                "--kubeconfig",
                kubeconfig,
                "--cluster-subnets",
                "10.128.0.0/14/23,fd00:10:128::/48/64",
                "--lease-namespace",
                "kube-system",
                "--identity",
                "cm-test",
                "--metrics-address",
                "127.0.0.1:0"));
        try (ClusterManagerCommand.Running running = command.start(Map.of())) {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> allocated(client, "worker-1") && allocated(client, "worker-2"));
            assertThat(annotation(client, "worker-1", OvnAnnotations.NODE_SUBNETS))
                    .matches(
                            "\\{\"default\":\\[\"10\\.(128|129|130|131)\\.\\d+\\.0/23\",\"fd00:10:128:[0-9a-f:]*/64\"]}");
            assertThat(annotation(client, "worker-1", OvnAnnotations.NODE_ID))
                    .isNotEqualTo(annotation(client, "worker-2", OvnAnnotations.NODE_ID));
            Lease lease = client.leases()
                    .inNamespace("kube-system")
                    .withName(ClusterManagerMain.LEASE)
                    .get();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("cm-test");

            int port = running.metrics().port();
            // a reconcile is counted once it returns, just after its annotations are visible
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(Http.get(port, "/metrics").body())
                            .contains(
                                    "kovn_cluster_manager_leader 1.0",
                                    NodeCommandTest.series(
                                            "kovn_controller_queue_to_done_seconds_count", "cluster-manager"),
                                    NodeCommandTest.series("kovn_controller_reconcile_total", "cluster-manager")));
            assertThat(Http.get(port, "/healthz")).isEqualTo(new Http.Reply(200, "ok\n"));
            assertThat(Http.get(port, "/nothing-here").status()).isEqualTo(404);

            // a node joining later is allocated too
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("worker-3")
                            .endMetadata()
                            .build())
                    .create();
            await().atMost(Duration.ofSeconds(20)).until(() -> allocated(client, "worker-3"));
        }
        // released on stop, so a standby replica takes over without waiting out the lease
        // fabric8 releases by shortening the lease to 1 s, so a standby need not wait out 15 s
        Lease after = client.leases()
                .inNamespace("kube-system")
                .withName(ClusterManagerMain.LEASE)
                .get();
        assertThat(after.getSpec().getLeaseDurationSeconds()).isEqualTo(1);
    }

    static boolean allocated(KubernetesClient client, String node) {
        return annotation(client, node, OvnAnnotations.NODE_ID) != null
                && annotation(client, node, OvnAnnotations.NODE_SUBNETS) != null
                && annotation(client, node, OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR) != null;
    }

    static String annotation(KubernetesClient client, String node, String key) {
        var n = client.nodes().withName(node).get();
        return n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(key);
    }
}
