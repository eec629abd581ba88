package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.controller.zone.ZoneModel;
import io.kovn.node.ManagementPort;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.infra.EmulatedNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Node reachability through the management port, with real packets on three emulated nodes: node-1 and node-2 share no
 * trust zone setting (none), node-3 is in tz1. Pods reach host-network pods (= node IPs) on their own node and on
 * node-2 over TCP and UDP, host-network pods reach pods, and node-3, sharing no zone, stays unreachable through the
 * overlay in both directions (its address is reached only as any host outside the cluster is: through the pod's own
 * node gateway). Applying the management port again (as a restarted agent does) changes nothing.
 */
@Tag("real")
class NodeReachabilityE2ETest {
    static SandboxFixture sb;
    static Pod pod1;
    static Pod pod2;
    static Pod host1;
    static Pod host2;
    static Pod host3;

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(3);
        sb.client
                .nodes()
                .withName("node-3")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"k8s.ovn.org/trust-zones\":\"{\\\"__default\\\":[\\\"tz1\\\"]}\"}}}");
        sb.namespace("reach", Map.of());
        sb.pod("reach", "pod-1", "node-1", Map.of());
        sb.pod("reach", "pod-2", "node-2", Map.of());
        for (int i = 1; i <= 3; i++) {
            hostPod("host-" + i, "node-" + i);
        }
        pod1 = sb.awaitRunning("reach", "pod-1");
        pod2 = sb.awaitRunning("reach", "pod-2");
        host1 = sb.awaitRunning("reach", "host-1");
        host2 = sb.awaitRunning("reach", "host-2");
        host3 = sb.awaitRunning("reach", "host-3");
    }

    /** A host-network pod serving TCP 80/8080 and UDP 53/5353 in its node's namespace. */
    private static void hostPod(String name, String node) {
        sb.client
                .pods()
                .inNamespace("reach")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("reach")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .withHostNetwork(true)
                        .addNewContainer()
                        .withName("main")
                        .withImage("kovn/netutil")
                        .withPorts(port(80, "TCP"), port(8080, "TCP"), port(53, "UDP"), port(5353, "UDP"))
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    private static ContainerPort port(int number, String protocol) {
        return new ContainerPortBuilder()
                .withContainerPort(number)
                .withProtocol(protocol)
                .build();
    }

    @AfterAll
    static void down() {
        if (sb != null) {
            sb.close();
            assertThat(sb.leftovers()).isEmpty();
        }
    }

    @Test
    void hostNetworkPodsCarryTheirNodesAddress() {
        for (EmulatedNode n : sb.sandbox.nodes()) {
            Pod host = sb.client
                    .pods()
                    .inNamespace("reach")
                    .withName("host-" + n.name().substring(5))
                    .get();
            assertThat(host.getStatus().getPodIP()).isEqualTo(n.encapIp());
        }
    }

    @Test
    void podsReachAHostNetworkPodOnTheirOwnNode() {
        awaitVerdict(pod1, host1, "tcp", 80, Verdict.ALLOWED);
        awaitVerdict(pod1, host1, "udp", 53, Verdict.ALLOWED);
        awaitVerdict(pod2, host2, "tcp", 8080, Verdict.ALLOWED);
    }

    @Test
    void podsReachAHostNetworkPodOnAnotherNode() {
        awaitVerdict(pod1, host2, "tcp", 80, Verdict.ALLOWED);
        awaitVerdict(pod1, host2, "udp", 5353, Verdict.ALLOWED);
        awaitVerdict(pod2, host1, "tcp", 8080, Verdict.ALLOWED);
        awaitVerdict(pod2, host1, "udp", 53, Verdict.ALLOWED);
    }

    @Test
    void hostNetworkPodsReachPodsOnTheirOwnAndOtherNodes() {
        awaitVerdict(host1, pod1, "tcp", 80, Verdict.ALLOWED);
        awaitVerdict(host1, pod2, "tcp", 80, Verdict.ALLOWED);
        awaitVerdict(host2, pod1, "udp", 53, Verdict.ALLOWED);
    }

    @Test
    void aNodeSharingNoTrustZoneStaysUnreachableThroughTheOverlay() throws Exception {
        // First a positive control on the same paths, so a converged sandbox is what says "no".
        awaitVerdict(pod1, host2, "tcp", 80, Verdict.ALLOWED);
        awaitVerdict(host2, pod1, "tcp", 80, Verdict.ALLOWED);
        // Since the node gateway, a pod reaches node-3's address as it reaches any host outside the
        // cluster: through its own node's GR_<node>, SNATed to its node's IP, over the underlay. Never
        // through the overlay: there is no tunnel between node-1 and node-3, and node-3's host never
        // reaches a pod (pod addresses exist only behind the overlay).
        EmulatedNode node1 = sb.sandbox.nodes().get(0);
        EmulatedNode node3 = sb.sandbox.nodes().get(2);
        assertThat(node1.tunnels().values()).doesNotContain(node3.encapIp());
        assertThat(node3.tunnels().values()).doesNotContain(node1.encapIp());
        assertThat(sb.probe(host3, pod1, "tcp", 80).verdict()).isNotEqualTo(Verdict.ALLOWED);
        assertThat(sb.probe(host3, pod2, "udp", 53).verdict()).isNotEqualTo(Verdict.ALLOWED);
    }

    @Test
    void reapplyingTheManagementPortAsARestartedAgentDoesChangesNothing() throws Exception {
        EmulatedNode node1 = sb.sandbox.nodes().getFirst();
        List<IpPrefix> subnets = NodeSubnets.parse(sb.client
                        .nodes()
                        .withName(node1.name())
                        .get()
                        .getMetadata()
                        .getAnnotations()
                        .get(OvnAnnotations.NODE_SUBNETS))
                .defaultNetwork();
        ManagementPort port = new ManagementPort(
                node1.name(),
                subnets,
                ZoneModel.DEFAULT_CLUSTER_SUBNETS,
                1400,
                List.of(IpLiterals.parse(node1.encapIp())));
        String before = node1.netns().ip("-4", "addr", "show", "dev", "ovn-k8s-mp0")
                + node1.netns().ip("-4", "route");
        port.apply(node1.confDb(), "br-int", node1.netns());
        port.apply(node1.confDb(), "br-int", node1.netns());
        assertThat(node1.netns().ip("-4", "addr", "show", "dev", "ovn-k8s-mp0")
                        + node1.netns().ip("-4", "route"))
                .isEqualTo(before)
                .contains("10.244.0.0/16 via ");
        assertThat(node1.confDb()
                        .interfaces(i ->
                                ("k8s-" + node1.name()).equals(i.externalIds().get("iface-id"))))
                .extracting(i -> i.name())
                .containsExactly("ovn-k8s-mp0");
        awaitVerdict(pod2, host1, "tcp", 80, Verdict.ALLOWED);
        awaitVerdict(host1, pod2, "udp", 53, Verdict.ALLOWED);
    }

    private static void awaitVerdict(Pod from, Pod to, String protocol, int port, Verdict expected) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(
                                sb.probe(from, to, protocol, port).verdict())
                        .as(
                                "%s -> %s %s/%d",
                                from.getMetadata().getName(), to.getMetadata().getName(), protocol, port)
                        .isEqualTo(expected));
    }
}
