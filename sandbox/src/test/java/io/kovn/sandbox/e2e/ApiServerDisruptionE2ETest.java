package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kovn.k8s.local.AuditLog;
import io.kovn.runtime.KubeControlPlane;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.infra.EmulatedNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kovn's watches against the worst a real control plane does to them: while pods come and go, etcd's history is
 * compacted (a watch resuming from an older resourceVersion gets 410 Gone and must relist) and kube-apiserver is
 * restarted, twice. Afterwards every zone holds exactly the ports of the pods that exist on its node, new pods get
 * addresses and carry packets, and a policy written after the disruption is enforced: every controller relisted and
 * converged.
 */
@Tag("real")
class ApiServerDisruptionE2ETest {
    static SandboxFixture sb;

    @RegisterExtension
    static final NodeLogsOnFailure LOGS = new NodeLogsOnFailure(() -> sb);

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(2);
        sb.namespace("churn", Map.of());
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    @Test
    void controllersConvergeAfterEtcdCompactionAndApiServerRestartsUnderPodChurn() throws Exception {
        KubeControlPlane controlPlane = sb.sandbox.cluster().controlPlane();
        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicInteger created = new AtomicInteger();
        Thread churn = Thread.ofPlatform().name("pod-churn").start(() -> {
            Deque<String> live = new ArrayDeque<>();
            for (int i = 0; churning.get(); i++) {
                try {
                    String name = "c" + i;
                    sb.pod("churn", name, "node-" + (1 + i % 2), Map.of("app", "churn"));
                    live.add(name);
                    created.incrementAndGet();
                    if (live.size() > 6) {
                        sb.client
                                .pods()
                                .inNamespace("churn")
                                .withName(live.poll())
                                .delete();
                    }
                    Thread.sleep(150);
                } catch (KubernetesClientException e) {
                    sleepQuietly(200); // kube-apiserver is restarting: try the next one
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Instant firstRestart = null;
        try {
            for (int round = 0; round < 2; round++) {
                Thread.sleep(3_000);
                long revision = controlPlane.compactEtcd();
                assertThat(revision).isPositive();
                controlPlane.restartApiServer();
                if (firstRestart == null) firstRestart = Instant.now();
            }
            Thread.sleep(3_000);
        } finally {
            churning.set(false);
            churn.join(30_000);
        }
        assertThat(created.get()).as("pods created during the disruption").isGreaterThan(20);
        // Every zone converges on exactly the pods that exist on its node, all running with an address.
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    var pods = sb.client.pods().inNamespace("churn").list().getItems();
                    assertThat(pods)
                            .allSatisfy(p -> assertThat(p.getStatus().getPodIP())
                                    .as(p.getMetadata().getName())
                                    .isNotNull());
                    for (EmulatedNode node : sb.sandbox.nodes()) {
                        Set<String> expected = pods.stream()
                                .filter(p -> node.name().equals(p.getSpec().getNodeName()))
                                .map(p -> "churn_" + p.getMetadata().getName())
                                .collect(Collectors.toCollection(TreeSet::new));
                        assertThat(churnPorts(node))
                                .as("pod ports in zone " + node.name())
                                .isEqualTo(expected);
                    }
                });

        // A watch resuming from a compacted resourceVersion gets 410 Gone and its informer lists again.
        // Nodes changed last before the disruption, so their watches always resume from a compacted
        // version: kube-apiserver's audit log shows each node's controllers listing nodes again.
        Instant since = firstRestart;
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    var audit = AuditLog.read(controlPlane.auditLog());
                    for (EmulatedNode node : sb.sandbox.nodes()) {
                        assertThat(audit)
                                .as("nodes listed again by " + node.name() + "'s controllers")
                                .anyMatch(e -> e.user().equals("system:ovn-node:" + node.name())
                                        && e.verb().equals("list")
                                        && e.resource().equals("nodes")
                                        && e.time().isAfter(since));
                    }
                });

        // New pods are plumbed and talk across nodes; a policy written now is enforced.
        sb.namespace("after", Map.of());
        sb.pod("after", "a", "node-1", Map.of("app", "a"));
        sb.pod("after", "b", "node-2", Map.of("app", "b"));
        Pod a = sb.awaitRunning("after", "a");
        Pod b = sb.awaitRunning("after", "b");
        assertThat(sb.probe(a, b, "tcp", 80).verdict()).isEqualTo(Verdict.ALLOWED);
        sb.client
                .network()
                .networkPolicies()
                .inNamespace("after")
                .resource(new NetworkPolicyBuilder()
                        .withNewMetadata()
                        .withName("deny-all")
                        .endMetadata()
                        .withNewSpec()
                        .withNewPodSelector()
                        .endPodSelector()
                        .withPolicyTypes("Ingress")
                        .endSpec()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(sb.probe(a, b, "tcp", 80).verdict()).isEqualTo(Verdict.DENIED));
    }

    private static Set<String> churnPorts(EmulatedNode node) {
        return Arrays.stream(node.nbctl("--bare", "--columns=name", "list", "Logical_Switch_Port")
                        .split("\\s+"))
                .filter(n -> n.startsWith("churn_"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
