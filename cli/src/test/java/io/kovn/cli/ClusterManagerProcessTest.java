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
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kovn cluster-manager} as a separate JVM, the way a container runs it: it serves until SIGTERM, then releases
 * its Lease and exits.
 */
@Tag("real")
class ClusterManagerProcessTest {
    @TempDir
    Path dir;

    @Test
    void runsUntilSigtermThenReleasesTheLeaseAndExits() throws Exception {
        int port = freePort();
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient client = cluster.admin();
        Path kubeconfig = cluster.adminKubeconfig();
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("worker-1")
                        .endMetadata()
                        .build())
                .create();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(
                        java.toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "cluster-manager",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--lease-namespace",
                        "kube-system",
                        "--identity",
                        "cm-process",
                        "--metrics-address",
                        "127.0.0.1:" + port))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("cluster-manager.log").toFile())
                .start();
        try {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> ClusterManagerCommandTest.allocated(client, "worker-1"));
            await().atMost(Duration.ofSeconds(10))
                    .ignoreExceptions()
                    .until(() -> Http.get(port, "/healthz").status() == 200);
            assertThat(Http.get(port, "/metrics").body()).contains("kovn_cluster_manager_leader 1.0");

            process.destroy(); // SIGTERM
            assertThat(process.waitFor(20, TimeUnit.SECONDS))
                    .as("exited after SIGTERM")
                    .isTrue();
            Lease lease = client.leases()
                    .inNamespace("kube-system")
                    .withName(ClusterManagerMain.LEASE)
                    .get();
            assertThat(lease.getSpec().getLeaseDurationSeconds()).as("released").isEqualTo(1);
            assertThat(ClusterManagerCommandTest.annotation(client, "worker-1", OvnAnnotations.NODE_ID))
                    .isEqualTo("2");
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
