package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Netns;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.infra.Leftovers;
import io.kovn.sandbox.infra.Underlay;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code kovn node} with its node agent, against an emulated node's real Open vSwitch, NB and SB and a real API server,
 * as the node's own identity: it keeps the switch's existing chassis identity, configures the chassis, publishes the
 * node's chassis and encap annotations, serves CNI on its socket and programs the zone.
 */
@Tag("real")
class NodeCommandOnEmulatedNodeTest {
    private final String prefix =
            "kvc" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";

    @Test
    void nodeAgentAndControllersRunAgainstARealSwitch() throws Exception {
        Path folder = Files.createTempDirectory(Path.of("/tmp"), "kvc");
        OvnRuntime runtime = OvnRuntime.locate();
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient client = cluster.admin();
        try (Underlay underlay = Underlay.create(prefix, "10.251.93.0/24");
                EmulatedNode emulated = EmulatedNode.start(underlay, "node-a", folder.resolve("node-a"), runtime)) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("node-a")
                            .endMetadata()
                            .build())
                    .create();
            Path cniSocket = folder.resolve("cni.sock");
            ClusterManagerCommand cm = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                    "cluster-manager",
                    "--kubeconfig",
                    cluster.adminKubeconfig().toString(),
                    "--lease-namespace",
                    "kube-system",
                    "--metrics-address",
                    "127.0.0.1:0"));
            NodeCommand node = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                    "node",
                    "--node-name",
                    "node-a",
                    "--kubeconfig",
                    NodeCommandTest.nodeKubeconfig(cluster, "node-a").toString(),
                    "--nb",
                    "unix:" + emulated.nbSocket(),
                    "--sb",
                    "unix:" + emulated.sbSocket(),
                    "--ovs-db",
                    "unix:" + emulated.ovsDbSocket(),
                    "--ovs-bin-dir",
                    runtime.binDir().toString(),
                    "--encap-ip",
                    emulated.encapIp(),
                    "--datapath-type",
                    "netdev",
                    "--cni-socket",
                    cniSocket.toString(),
                    "--metrics-address",
                    "127.0.0.1:0"));
            try (ClusterManagerCommand.Running ignored = cm.start(Map.of());
                    NodeCommand.Running running = node.start(Map.of())) {
                // the switch's existing system-id is kept: the chassis identity survives reinstalls
                assertThat(ClusterManagerCommandTest.annotation(client, "node-a", OvnAnnotations.NODE_CHASSIS_ID))
                        .isEqualTo(emulated.systemId());
                assertThat(ClusterManagerCommandTest.annotation(client, "node-a", OvnAnnotations.NODE_ENCAP_IPS))
                        .isEqualTo("[\"" + emulated.encapIp() + "\"]");
                assertThat(emulated.confDb().root().orElseThrow().externalIds())
                        .containsEntry("ovn-remote", "unix:" + emulated.sbSocket());
                assertThat(cniSocket).exists();
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(
                                        emulated.nbctl("--bare", "--columns=name", "list", "Logical_Switch_Port"))
                                .contains("stor-node-a", "tstor-node-a"));
                assertThat(Http.get(running.metrics().port(), "/healthz").status())
                        .isEqualTo(200);
            }
            assertThat(cniSocket).as("CNI socket removed on stop").doesNotExist();
        } finally {
            Leftovers.cleanup(prefix, folder);
            assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
            assertThat(Netns.root().links()).noneMatch(l -> l.startsWith(prefix));
            assertThat(folder).doesNotExist();
        }
    }
}
