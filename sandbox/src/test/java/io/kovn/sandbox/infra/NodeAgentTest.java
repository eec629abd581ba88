package io.kovn.sandbox.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.DeployManifests;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.node.NodeAgent;
import io.kovn.node.NodeAgentConfig;
import io.kovn.node.cni.CniCommand;
import io.kovn.node.cni.CniConfig;
import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import io.kovn.node.cni.PodRef;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/**
 * The node agent on an emulated node against a real kube-apiserver, as its node identity: annotations, CNI, restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class NodeAgentTest {
    private static final String POD_NETWORKS = "k8s.ovn.org/pod-networks";
    private final String prefix =
            "kvt" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
    private Path folder;
    private Underlay underlay;
    private EmulatedNode node;
    private KubernetesClient client;
    private KubernetesClient agentClient;
    private NodeAgentConfig config;
    private NodeAgent agent;

    @BeforeAll
    void start() throws IOException {
        folder = Files.createTempDirectory(Path.of("/tmp"), "kvt");
        underlay = Underlay.create(prefix, "10.251.19.0/24");
        node = EmulatedNode.start(underlay, "node-a", folder.resolve("a"), OvnRuntime.locate());
        node.nbctl("ls-add", "sw0");
        LocalCluster cluster = SharedCluster.fresh();
        client = KubeClients.fromKubeconfig(cluster.adminKubeconfig());
        DeployManifests.apply(client, DeployManifests.access(Path.of("..", "deploy")));
        LocalCluster.awaitDefaultServiceAccount(client, "default");
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("node-a")
                        .endMetadata()
                        .build())
                .create();
        // the agent runs as its node identity, with the node RBAC of deploy/ and nothing more
        agentClient = cluster.clientAs("system:ovn-node:node-a", "system:ovn-nodes");
        config = new NodeAgentConfig(
                "node-a",
                node.ovsConfig(),
                node.ovsPaths(),
                node.netns(),
                folder.resolve("cni.sock"),
                Duration.ofSeconds(3),
                Duration.ofSeconds(15),
                1400);
        agent = NodeAgent.start(agentClient, config);
    }

    @AfterAll
    void tearDown() {
        try {
            for (AutoCloseable c : new AutoCloseable[] {agent, agentClient, client, node, underlay}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (Exception e) {
                    // Leftovers below removes whatever close could not
                }
            }
        } finally {
            Leftovers.cleanup(prefix, folder);
            assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
            assertThat(Netns.root().links()).noneMatch(l -> l.startsWith(prefix));
        }
    }

    private Pod createPod(String name) {
        return client.pods()
                .inNamespace("default")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
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
    }

    /** What the zone controller would do: the logical switch port, then the annotation. */
    private void annotate(Pod pod, int i) {
        String lsp = "default_" + pod.getMetadata().getName();
        node.nbctl("lsp-add", "sw0", lsp, "--", "lsp-set-addresses", lsp, mac(i) + " 10.244.0." + i);
        client.pods()
                .inNamespace("default")
                .withName(pod.getMetadata().getName())
                .edit(p -> {
                    p.getMetadata()
                            .setAnnotations(Map.of(
                                    POD_NETWORKS,
                                    "{\"default\":{\"ip_addresses\":[\"10.244.0." + i
                                            + "/24\"],\"mac_address\":\"" + mac(i)
                                            + "\",\"gateway_ips\":[\"10.244.0.1\"],\"routes\":[],"
                                            + "\"role\":\"primary\"}}"));
                    return p;
                });
    }

    private static String mac(int i) {
        return "0a:58:0a:f4:00:%02x".formatted(i);
    }

    /** CNI_NETNS as containerd passes it: a path (here through the /var/run symlink), not an ip-netns name. */
    private static CniRequest request(CniCommand command, Pod pod, EmulatedPod netns) {
        return new CniRequest(
                command,
                "ctr-" + pod.getMetadata().getName(),
                "/var/run/netns/" + netns.netns().name().orElseThrow(),
                "eth0",
                new PodRef(
                        "default",
                        pod.getMetadata().getName(),
                        pod.getMetadata().getUid()),
                new CniConfig("1.1.0", "kovn", "kovn-cni", "", 0, "", Optional.empty(), List.of()));
    }

    @Test
    void publishesChassisIdAndEncapIpsOnItsNode() {
        Map<String, String> annotations =
                client.nodes().withName("node-a").get().getMetadata().getAnnotations();
        assertThat(annotations)
                .containsEntry("k8s.ovn.org/node-chassis-id", node.systemId())
                .containsEntry("k8s.ovn.org/node-encap-ips", "[\"" + node.encapIp() + "\"]")
                // the node IP is on br-phy: its shared gateway, written with the node's own identity
                .containsEntry("k8s.ovn.org/node-primary-ifaddr", "{\"ipv4\":\"" + node.encapIp() + "/24\"}");
        L3GatewayConfig gw = L3GatewayConfig.parse(annotations.get("k8s.ovn.org/l3-gateway-config"));
        assertThat(gw.interfaceId()).isEqualTo("br-phy_node-a");
        assertThat(gw.nextHops()).isEmpty(); // this node has no default route
        // the sandbox's own conf.db connection sees the agent's writes a moment later
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(
                                node.confDb().bridge("br-phy").orElseThrow().otherConfig())
                        .containsEntry("hwaddr", gw.macAddress()));
        assertThat(config.cniSocket()).exists();
    }

    @Test
    void addWaitsForTheAnnotationThenPlumbsAndPodsSurviveAnAgentRestart() throws Exception {
        try (EmulatedPod n1 = EmulatedPod.create(prefix, "default", "web1");
                EmulatedPod n2 = EmulatedPod.create(prefix, "default", "web2")) {
            Pod web1 = createPod("web1");
            Pod web2 = createPod("web2");
            annotate(web2, 12);
            CompletableFuture<CniResult> pending = CompletableFuture.supplyAsync(() -> {
                try {
                    return agent.cniHandler().add(request(CniCommand.ADD, web1, n1));
                } catch (CniException e) {
                    throw new IllegalStateException(e.code() + " " + e.msg() + ": " + e.details(), e);
                }
            });
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !pending.isDone());
            annotate(web1, 11);
            CniResult r1 = pending.get(20, TimeUnit.SECONDS);
            assertThat(r1.ips()).singleElement().isEqualTo(new CniResult.IpConfig("10.244.0.11/24", "10.244.0.1", 1));
            assertThat(r1.interfaces()).hasSize(2);
            assertThat(r1.interfaces().get(1).mac()).isEqualTo(mac(11));
            agent.cniHandler().add(request(CniCommand.ADD, web2, n2));
            agent.cniHandler().check(request(CniCommand.CHECK, web1, n1));
            assertThat(n1.exec("busybox", "ping", "-c", "1", "-W", "2", "10.244.0.12"))
                    .contains("1 packets received");

            agent.close();
            assertThat(n1.exec("busybox", "ping", "-c", "1", "-W", "2", "10.244.0.12"))
                    .contains("1 packets received");
            agent = NodeAgent.start(agentClient, config);
            agent.cniHandler().status();
            agent.cniHandler().check(request(CniCommand.CHECK, web2, n2));
            assertThat(n2.exec("busybox", "ping", "-c", "1", "-W", "2", "10.244.0.11"))
                    .contains("1 packets received");

            agent.cniHandler().del(request(CniCommand.DEL, web1, n1));
            agent.cniHandler().del(request(CniCommand.DEL, web1, n1));
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(node.ports("br-int")).doesNotContain("ctr-web1"));
            assertThatThrownBy(() -> agent.cniHandler().check(request(CniCommand.CHECK, web1, n1)))
                    .isInstanceOfSatisfying(
                            CniException.class, e -> assertThat(e.details()).contains("missing"));
            agent.cniHandler().del(request(CniCommand.DEL, web2, n2));
        }
    }

    @Test
    void addForAPodThatNeverGetsAnnotatedFailsWithTryAgainLater() {
        try (EmulatedPod n = EmulatedPod.create(prefix, "default", "lonely")) {
            Pod lonely = createPod("lonely");
            assertThatThrownBy(() -> agent.cniHandler().add(request(CniCommand.ADD, lonely, n)))
                    .isInstanceOfSatisfying(CniException.class, e -> {
                        assertThat(e.code()).isEqualTo(CniException.TRY_AGAIN_LATER);
                        assertThat(e.details()).contains("default/lonely");
                    });
            assertThat(n.netns().linkExists("eth0")).isFalse();
        }
    }

    @Test
    void gcRemovesTheWiringOfContainersTheRuntimeNoLongerLists() throws Exception {
        try (EmulatedPod keepNs = EmulatedPod.create(prefix, "default", "keep");
                EmulatedPod goneNs = EmulatedPod.create(prefix, "default", "gone")) {
            Pod keep = createPod("keep");
            Pod gone = createPod("gone");
            annotate(keep, 21);
            annotate(gone, 22);
            agent.cniHandler().add(request(CniCommand.ADD, keep, keepNs));
            agent.cniHandler().add(request(CniCommand.ADD, gone, goneNs));

            agent.cniHandler().gc(List.of(new CniConfig.Attachment("ctr-keep", "eth0")));

            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(node.ports("br-int"))
                            .contains("ctr-keep")
                            .doesNotContain("ctr-gone"));
            assertThat(goneNs.netns().linkExists("eth0")).isFalse();
            agent.cniHandler().check(request(CniCommand.CHECK, keep, keepNs));
            agent.cniHandler().del(request(CniCommand.DEL, keep, keepNs));
        }
    }

    @Test
    void concurrentAddsForManyPodsAllSucceed() throws Exception {
        int n = 8;
        List<EmulatedPod> netns = new ArrayList<>();
        try {
            List<Pod> pods = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                netns.add(EmulatedPod.create(prefix, "default", "many" + i));
                Pod pod = createPod("many" + i);
                annotate(pod, 40 + i);
                pods.add(pod);
            }
            List<Long> millis = Collections.synchronizedList(new ArrayList<>());
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<CniResult>> results = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    CniRequest add = request(CniCommand.ADD, pods.get(i), netns.get(i));
                    results.add(pool.submit(() -> {
                        long t0 = System.nanoTime();
                        CniResult r = agent.cniHandler().add(add);
                        millis.add((System.nanoTime() - t0) / 1_000_000);
                        return r;
                    }));
                }
                for (int i = 0; i < n; i++) {
                    assertThat(results.get(i)
                                    .get(60, TimeUnit.SECONDS)
                                    .ips()
                                    .getFirst()
                                    .address())
                            .isEqualTo("10.244.0." + (40 + i) + "/24");
                }
            }
            List<Long> sorted = millis.stream().sorted().toList();
            LoggerFactory.getLogger(NodeAgentTest.class)
                    .info("{} concurrent ADDs: p50 {} ms, max {} ms", n, sorted.get(n / 2), sorted.getLast());
            assertThat(netns.getFirst().exec("busybox", "ping", "-c", "1", "-W", "2", "10.244.0." + (40 + n - 1)))
                    .contains("1 packets received");
            for (int i = 0; i < n; i++) {
                agent.cniHandler().del(request(CniCommand.DEL, pods.get(i), netns.get(i)));
            }
        } finally {
            netns.forEach(EmulatedPod::close);
        }
    }
}
