package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.runtime.net.Netns;
import io.kovn.sandbox.CniInvoker;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.infra.EmulatedNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node's kovn process (node agent, zone and policy controllers) stopped and started again with pods running on the
 * node, as a restarted node pod would be: its pods keep talking to pods on its own node and across nodes the whole time
 * (probes throughout), a CNI ADD while it is down gets a CNI error (not a hang, not a crash), a pod created then starts
 * once it is back (the runtime retries), and afterwards nothing of the restart is left: deleting that pod leaves the
 * zone's ports and the node's {@code br-int} as they were.
 */
@Tag("real")
class NodeProcessRestartE2ETest {
    static final Duration DOWN = Duration.ofSeconds(4);
    static SandboxFixture sb;

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(2);
        sb.namespace("keep", Map.of());
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    @Test
    void podsKeepTheirConnectivityAcrossARestartAndPodsAddedMeanwhileStartAfterIt() throws Exception {
        sb.pod("keep", "a", "node-1", Map.of("app", "a"));
        sb.pod("keep", "b", "node-2", Map.of("app", "b"));
        sb.pod("keep", "c", "node-1", Map.of("app", "c"));
        Pod a = sb.awaitRunning("keep", "a");
        Pod b = sb.awaitRunning("keep", "b");
        Pod c = sb.awaitRunning("keep", "c");
        EmulatedNode node1 = sb.sandbox.nodes().getFirst();
        Set<String> bridgePorts = new TreeSet<>(node1.ports("br-int"));
        Set<String> zonePorts = keepPorts(node1);
        String addressOfD;

        AtomicBoolean probing = new AtomicBoolean(true);
        AtomicInteger probes = new AtomicInteger();
        List<String> wrong = new ArrayList<>();
        Thread prober = Thread.ofPlatform().name("probes").start(() -> {
            while (probing.get()) {
                for (Pod[] pair : List.of(new Pod[] {a, b}, new Pod[] {b, a}, new Pod[] {a, c})) {
                    try {
                        Verdict v = sb.probe(pair[0], pair[1], "tcp", 80).verdict();
                        probes.incrementAndGet();
                        if (v != Verdict.ALLOWED) {
                            synchronized (wrong) {
                                wrong.add(name(pair[0]) + " -> " + name(pair[1]) + ": " + v);
                            }
                        }
                    } catch (Exception e) {
                        synchronized (wrong) {
                            wrong.add(name(pair[0]) + " -> " + name(pair[1]) + ": " + e);
                        }
                    }
                }
            }
        });
        try {
            Thread.sleep(1_000);
            // On a thread of its own, not the common pool: the restart blocks (sleeps, waits for its informers), and
            // on a 2-core machine the common pool has one thread, which the JDK HTTP client also needs to complete
            // every API response in this JVM (its lists would then time out while this restart waits for them).
            CompletableFuture<Void> restart = new CompletableFuture<>();
            Thread.ofPlatform().name("restart-node-1").start(() -> {
                try {
                    sb.sandbox.restartNodeProcess("node-1", DOWN);
                    restart.complete(null);
                } catch (Throwable e) {
                    restart.completeExceptionally(e);
                }
            });
            Thread.sleep(DOWN.toMillis() / 4);
            // While it is down: the plugin answers a CNI error of its own, at once.
            Netns ghost = Netns.add(sb.prefix + "-ghost");
            try {
                CniInvoker cni =
                        new CniInvoker(sb.layout.cniDir().resolve("node-1.conflist"), List.of(sb.layout.binDir()));
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> cni.add(new CniInvoker.Attachment(
                                "ghost0123", ghost.path().orElseThrow(), "eth0", "keep", "ghost", null)))
                        .isInstanceOf(CniInvoker.CniCallException.class)
                        .satisfies(e -> assertThat(((CniInvoker.CniCallException) e).code())
                                .isPositive());
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
            } finally {
                ghost.delete();
            }
            // A pod scheduled meanwhile: the runtime's first ADD fails, a retry after the restart succeeds.
            sb.pod("keep", "d", "node-1", Map.of("app", "d"));
            restart.join();
            Pod d = sb.awaitRunning("keep", "d");
            addressOfD = d.getStatus().getPodIP();
            assertThat(sb.probe(d, b, "tcp", 80).verdict()).isEqualTo(Verdict.ALLOWED);
            assertThat(sb.probe(a, d, "tcp", 80).verdict()).isEqualTo(Verdict.ALLOWED);
            Thread.sleep(1_000);
        } finally {
            probing.set(false);
            prober.join(10_000);
        }
        assertThat(probes.get()).as("probes during the restart").isGreaterThan(6);
        synchronized (wrong) {
            assertThat(wrong).as("probes of running pods that failed").isEmpty();
        }

        // Nothing leaked: without the pod added across the restart, node-1 is as it was before.
        sb.client.pods().inNamespace("keep").withName("d").delete();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    assertThat(sb.client
                                    .pods()
                                    .inNamespace("keep")
                                    .withName("d")
                                    .get())
                            .isNull();
                    assertThat(keepPorts(node1)).isEqualTo(zonePorts);
                    assertThat(new TreeSet<>(node1.ports("br-int"))).isEqualTo(bridgePorts);
                });
        // and its address is free again: node-1's next pod is given it (the lowest free address)
        sb.pod("keep", "e", "node-1", Map.of("app", "e"));
        assertThat(sb.awaitRunning("keep", "e").getStatus().getPodIP()).isEqualTo(addressOfD);
    }

    private static Set<String> keepPorts(EmulatedNode node) {
        return Arrays.stream(node.nbctl("--bare", "--columns=name", "list", "Logical_Switch_Port")
                        .split("\\s+"))
                .filter(n -> n.startsWith("keep_"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String name(Pod p) {
        return p.getMetadata().getName();
    }
}
