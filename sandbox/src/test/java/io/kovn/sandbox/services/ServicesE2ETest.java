package io.kovn.sandbox.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.e2e.SandboxFixture;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.trace.PolicyTracer;
import io.kovn.sandbox.trace.ServiceTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Services on the real control plane, with real packets: kube-controller-manager writes the EndpointSlices, every
 * zone's service controller its load balancers. A client on node-1, backends on node-2 and node-3; ClusterIP from the
 * client, NodePort from the sandbox's outside host.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class ServicesE2ETest {
    static final String NS = "svc";
    static SandboxFixture sb;
    static Pod client;
    static Pod webA;
    static Pod webB;
    static Path readyFile;

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(3);
        sb.namespace(NS, Map.of());
        sb.pod(NS, "client", "node-1", Map.of("app", "client"));
        sb.pod(NS, "web-a", "node-2", Map.of("app", "web"));
        sb.pod(NS, "web-b", "node-3", Map.of("app", "web", "which", "b"));
        client = sb.awaitRunning(NS, "client");
        webA = sb.awaitRunning(NS, "web-a");
        webB = sb.awaitRunning(NS, "web-b");
        readyFile = Files.createTempFile(sb.layout.dir(), "ready", "");
        // tcp 80 -> the pods' "web-alt" (8080) by name, udp 53 -> 5353
        service("web", Map.of("app", "web"));
        service("nobody", Map.of("app", "nobody"));
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    private static Service service(String name, Map<String, String> selector) {
        return sb.client
                .services()
                .inNamespace(NS)
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewSpec()
                        .withSelector(selector)
                        .addNewPort()
                        .withName("http")
                        .withProtocol("TCP")
                        .withPort(80)
                        .withTargetPort(new IntOrString("web-alt"))
                        .endPort()
                        .addNewPort()
                        .withName("dns")
                        .withProtocol("UDP")
                        .withPort(53)
                        .withTargetPort(new IntOrString(5353))
                        .endPort()
                        .endSpec()
                        .build())
                .create();
    }

    private static String clusterIp(String name) {
        return sb.client
                .services()
                .inNamespace(NS)
                .withName(name)
                .get()
                .getSpec()
                .getClusterIP();
    }

    private static ServiceTarget target(String name, int port) {
        return sb.serviceTarget(NS, name, port);
    }

    private static Prober.Result probe(Pod from, String ip, String protocol, int port) throws Exception {
        return sb.prober.probe(
                from.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION),
                protocol,
                ip,
                port,
                Duration.ofSeconds(2));
    }

    /**
     * Who answered how many of {@code n} connections to {@code ip:port}; timeouts and refusals by their verdict word.
     */
    private static Map<String, Integer> spread(Pod from, String ip, String protocol, int port, int n) throws Exception {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Prober.Result r = probe(from, ip, protocol, port);
            seen.merge(r.verdict() == Prober.Verdict.ALLOWED ? r.answer() : r.verdict().word, 1, Integer::sum);
        }
        return seen;
    }

    private static String vipsOnNode1(String service) {
        EmulatedNode n = sb.sandbox.nodes().getFirst();
        return n.nbctl(
                "--bare",
                "--columns=name,vips",
                "find",
                "Load_Balancer",
                "external_ids:k8s.ovn.org/owner=" + NS + "/" + service);
    }

    @Test
    @Order(1)
    void aPodReachesBothBackendsOnOtherNodesThroughTheClusterIpOverTcpAndUdp() throws Exception {
        String vip = clusterIp("web");
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> probe(client, vip, "tcp", 80).verdict() == Prober.Verdict.ALLOWED);
        Map<String, Integer> tcp = spread(client, vip, "tcp", 80, 16);
        assertThat(tcp.keySet()).as("answers over TCP " + tcp).containsExactlyInAnyOrder("web-a", "web-b");
        Map<String, Integer> udp = spread(client, vip, "udp", 53, 16);
        assertThat(udp.keySet()).as("answers over UDP " + udp).containsExactlyInAnyOrder("web-a", "web-b");
    }

    @Test
    @Order(2)
    void aServiceWithoutEndpointsRefusesRatherThanTimingOut() throws Exception {
        String vip = clusterIp("nobody");
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> !vipsOnNode1("nobody").isBlank());
        assertThat(probe(client, vip, "tcp", 80).verdict()).isEqualTo(Prober.Verdict.REFUSED);
    }

    @Test
    @Order(3)
    void endpointsFollowReadinessAndChurnWithinTwoSeconds() throws Exception {
        Files.deleteIfExists(readyFile);
        sb.client
                .pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("web-r")
                        .withNamespace(NS)
                        .addToLabels("app", "web")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("node-2")
                        .addNewContainer()
                        .withName("main")
                        .withImage("kovn/netutil")
                        .addNewPort()
                        .withContainerPort(8080)
                        .withName("web-alt")
                        .endPort()
                        .withNewReadinessProbe()
                        .withNewExec()
                        .withCommand("test", "-e", readyFile.toString())
                        .endExec()
                        .withPeriodSeconds(1)
                        .withFailureThreshold(1)
                        .endReadinessProbe()
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        Pod r = sb.awaitRunning(NS, "web-r");
        String ip = r.getStatus().getPodIP();
        Thread.sleep(1500);
        assertThat(vipsOnNode1("web")).as("an unready pod is no backend").doesNotContain(ip + ":8080");

        Files.writeString(readyFile, "");
        long ready = awaitReady("web-r", true);
        long added = awaitVips(v -> v.contains(ip + ":8080"));
        Files.delete(readyFile);
        long unready = awaitReady("web-r", false);
        long removed = awaitVips(v -> !v.contains(ip + ":8080"));
        System.out.printf(
                "readiness -> load balancer: added %d ms, removed %d ms after the pod's Ready condition changed%n",
                added - ready, removed - unready);
        assertThat(added - ready)
                .as("ms from Ready=True to the backend in node-1's load balancer")
                .isLessThan(2000);
        assertThat(removed - unready)
                .as("ms from Ready=False to the backend gone")
                .isLessThan(2000);

        // churn: a deleted backend leaves within 2 s of its deletion
        String ipB = webB.getStatus().getPodIP();
        long deleted = System.nanoTime() / 1_000_000;
        sb.client.pods().inNamespace(NS).withName("web-b").delete();
        long gone = awaitVips(v -> !v.contains(ipB + ":8080"));
        System.out.printf("pod deletion -> load balancer: %d ms%n", gone - deleted);
        assertThat(gone - deleted)
                .as("ms from the deletion to the backend gone")
                .isLessThan(2000);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> sb.client.pods().inNamespace(NS).withName("web-b").get() == null);
        sb.pod(NS, "web-b", "node-3", Map.of("app", "web", "which", "b"));
        webB = sb.awaitRunning(NS, "web-b");
        sb.client.pods().inNamespace(NS).withName("web-r").delete();
        awaitVips(v -> v.contains(webB.getStatus().getPodIP() + ":8080") && !v.contains(ip + ":8080"));
    }

    private static long awaitReady(String pod, boolean ready) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    Pod p = sb.client.pods().inNamespace(NS).withName(pod).get();
                    return p.getStatus().getConditions().stream()
                            .anyMatch(c ->
                                    c.getType().equals("Ready") && c.getStatus().equals(ready ? "True" : "False"));
                });
        return System.nanoTime() / 1_000_000;
    }

    private static long awaitVips(Predicate<String> p) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> p.test(vipsOnNode1("web")));
        return System.nanoTime() / 1_000_000;
    }

    @Test
    @Order(4)
    void egressPolicyIsDecidedOnTheBackendAfterLoadBalancingAndProbeTraceAndAnalyzeAgree() throws Exception {
        // client may reach web-a, not web-b (on the target port: after load balancing)
        sb.client
                .resources(AdminNetworkPolicy.class)
                .resource(AdminNetworkPolicy.of(
                        "client-egress",
                        new AdminNetworkPolicySpec(
                                5,
                                AdminNetworkPolicySubject.pods(
                                        labels("kubernetes.io/metadata.name", NS), labels("app", "client")),
                                List.of(),
                                List.of(new AdminNetworkPolicyEgressRule(
                                        "deny-b",
                                        AdminNetworkPolicyRuleAction.DENY,
                                        List.of(AdminNetworkPolicyEgressPeer.pods(
                                                labels("kubernetes.io/metadata.name", NS), labels("which", "b"))),
                                        List.of(AdminNetworkPolicyPort.number("TCP", 8080)))))))
                .create();
        String vip = clusterIp("web");
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250))
                .until(() ->
                        probe(client, webB.getStatus().getPodIP(), "tcp", 8080).verdict() == Prober.Verdict.DENIED);
        try {
            // probe: web-a answers, the connections sent to web-b time out
            Map<String, Integer> seen = spread(client, vip, "tcp", 80, 12);
            assertThat(seen)
                    .as("answers " + seen)
                    .containsKey("web-a")
                    .doesNotContainKey("web-b")
                    .containsKey(Prober.Verdict.DENIED.word);
            // trace: one verdict per backend
            ServiceTarget target = target("web", 80);
            PolicyTracer.ServiceResult traced = sb.tracer().traceToService(client, target, sb::podByRef);
            assertThat(traced.loadBalancers())
                    .as("the load balancer holding the VIP")
                    .isNotEmpty();
            Map<String, Boolean> byBackend = new HashMap<>();
            traced.backends()
                    .forEach(b -> byBackend.put(
                            b.backend().pod().orElseThrow(), b.result().allowed()));
            assertThat(byBackend).containsEntry(NS + "/web-a", true).containsEntry(NS + "/web-b", false);
            assertThat(traced.render(false, null))
                    .contains("backend " + NS + "/web-b")
                    .contains("client-egress")
                    .contains("verdict: denied");
            // analyze: the same per backend
            PolicyEvaluator evaluator = PolicyEvaluator.compile(PolicySnapshot.builder("services")
                    .namespaces(sb.client.namespaces().list().getItems())
                    .pods(sb.client.pods().inAnyNamespace().list().getItems())
                    .nodes(sb.client.nodes().list().getItems())
                    .adminNetworkPolicies(
                            sb.client.resources(AdminNetworkPolicy.class).list().getItems())
                    .baselineAdminNetworkPolicies(sb.client
                            .resources(BaselineAdminNetworkPolicy.class)
                            .list()
                            .getItems())
                    .build());
            for (ServiceTarget.Backend b : target.backends()) {
                Verdict v = evaluator
                        .evaluate(Flow.of(
                                Endpoint.pod(NS, "client"),
                                Endpoint.parse(b.pod().orElseThrow()),
                                ProtocolPort.parse("tcp/" + b.port())))
                        .verdict();
                assertThat(v == Verdict.ALLOWED)
                        .as("analyze " + b.label())
                        .isEqualTo(byBackend.get(b.pod().get()));
            }
        } finally {
            sb.client
                    .resources(AdminNetworkPolicy.class)
                    .withName("client-egress")
                    .delete();
        }
    }

    @Test
    @Order(5)
    void theOutsideHostReachesANodePortOnEveryNodeAndWithLocalTrafficPolicyOnlyOnNodesWithABackend() throws Exception {
        Service cluster = nodePort("web-np", "Cluster");
        Service local = nodePort("web-local", "Local");
        String outside = sb.sandbox.outside().netns().name().orElseThrow();
        int np = cluster.getSpec().getPorts().getFirst().getNodePort();
        int lp = local.getSpec().getPorts().getFirst().getNodePort();
        for (EmulatedNode n : sb.sandbox.nodes()) {
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> n.nbctl("lb-list").contains(n.encapIp() + ":" + np));
        }
        for (EmulatedNode n : sb.sandbox.nodes()) {
            // every node answers, whichever backend the load balancer picks (web-a on node-2, web-b on node-3),
            // from the first connection on (the node's own stack must not answer for its gateway router)
            assertThat(sb.prober
                            .probe(outside, "tcp", n.encapIp(), np, Duration.ofSeconds(2))
                            .answer())
                    .as("first connection outside -> " + n.name() + ":" + np)
                    .isIn("web-a", "web-b");
        }
        Map<String, String> localBackend = Map.of("node-2", "web-a", "node-3", "web-b");
        for (EmulatedNode n : sb.sandbox.nodes()) {
            if (localBackend.containsKey(n.name())) {
                await().atMost(Duration.ofSeconds(20))
                        .pollInterval(Duration.ofMillis(250))
                        .untilAsserted(() -> assertThat(sb.prober
                                        .probe(outside, "tcp", n.encapIp(), lp, Duration.ofSeconds(2))
                                        .answer())
                                .as("outside -> " + n.name() + ":" + lp + " (Local)")
                                .isEqualTo(localBackend.get(n.name())));
            } else {
                assertThat(sb.prober
                                .probe(outside, "tcp", n.encapIp(), lp, Duration.ofSeconds(2))
                                .verdict())
                        .as("outside -> " + n.name() + ":" + lp + " (Local, no backend there)")
                        .isNotEqualTo(Prober.Verdict.ALLOWED);
            }
        }
        // UDP through a NodePort too
        int udp = cluster.getSpec().getPorts().get(1).getNodePort();
        EmulatedNode node1 = sb.sandbox.nodes().getFirst();
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(sb.prober
                                .probe(outside, "udp", node1.encapIp(), udp, Duration.ofSeconds(2))
                                .answer())
                        .isIn("web-a", "web-b"));
    }

    private static Service nodePort(String name, String externalTrafficPolicy) {
        return sb.client
                .services()
                .inNamespace(NS)
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewSpec()
                        .withType("NodePort")
                        .withExternalTrafficPolicy(externalTrafficPolicy)
                        .withSelector(Map.of("app", "web"))
                        .addNewPort()
                        .withName("http")
                        .withProtocol("TCP")
                        .withPort(80)
                        .withTargetPort(new IntOrString("web-alt"))
                        .endPort()
                        .addNewPort()
                        .withName("dns")
                        .withProtocol("UDP")
                        .withPort(53)
                        .withTargetPort(new IntOrString(5353))
                        .endPort()
                        .endSpec()
                        .build())
                .create();
    }

    @Test
    @Order(6)
    void aDeletedServiceLeavesNoLoadBalancerInAnyZone() {
        sb.client.services().inNamespace(NS).withName("nobody").delete();
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> sb.sandbox.nodes().stream()
                        .allMatch(n -> n.nbctl("--bare", "--columns=name", "list", "Load_Balancer")
                                .lines()
                                .noneMatch(l -> l.contains(NS + "/nobody"))));
    }

    private static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
    }
}
