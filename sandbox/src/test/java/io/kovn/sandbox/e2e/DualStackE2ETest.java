package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.EmulatedNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code kovn sandbox up --ip-families ipv4,ipv6}: two nodes with an IPv6 address beside the IPv4 one, pods with an
 * address of each family; real TCP, UDP and ICMPv6 between pods on one node and across nodes (geneve still over IPv4),
 * from the host network to a pod and from a pod to a node, and from a pod to the outside host through the node's
 * gateway (SNAT to the node's IPv6 address), over IPv6.
 */
@Tag("real")
class DualStackE2ETest {
    static SandboxFixture sb;
    static Pod a;
    static Pod b;
    static Pod c;

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(2, true);
        sb.namespace("dual", Map.of());
        sb.pod("dual", "a", "node-1", Map.of());
        sb.pod("dual", "b", "node-2", Map.of());
        sb.pod("dual", "c", "node-1", Map.of());
        a = sb.awaitRunning("dual", "a");
        b = sb.awaitRunning("dual", "b");
        c = sb.awaitRunning("dual", "c");
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    private static String v6(Pod p) {
        List<String> ips = p.getStatus().getPodIPs().stream().map(PodIP::getIp).toList();
        assertThat(ips).as("pod IPs of " + p.getMetadata().getName()).hasSize(2);
        return ips.stream().filter(ip -> ip.contains(":")).findFirst().orElseThrow();
    }

    private static Prober.Result probe(String netns, String ip, String protocol, int port) throws Exception {
        return sb.prober.probe(netns, protocol, ip, port, Duration.ofSeconds(3));
    }

    private static String netns(Pod p) {
        return p.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION);
    }

    @Test
    void podsHaveAnAddressOfEachFamilyAndTalkOverIpv6OnOneNodeAndAcrossNodes() throws Exception {
        assertThat(v6(a)).startsWith("fd00:10:244:");
        assertThat(sb.client
                        .nodes()
                        .withName("node-1")
                        .get()
                        .getMetadata()
                        .getAnnotations()
                        .get("k8s.ovn.org/node-subnets"))
                .contains("10.244.")
                .contains("fd00:10:244:");
        for (Pod to : List.of(b, c)) {
            String flow = "a -> " + to.getMetadata().getName() + " over IPv6";
            Prober.Result tcp = probe(netns(a), v6(to), "tcp", 80);
            assertThat(tcp.verdict()).as("tcp " + flow).isEqualTo(Verdict.ALLOWED);
            assertThat(tcp.answer()).isEqualTo(to.getMetadata().getName());
            assertThat(probe(netns(a), v6(to), "udp", 5353).verdict())
                    .as("udp " + flow)
                    .isEqualTo(Verdict.ALLOWED);
            assertThat(probe(netns(a), v6(to), "icmp", 0).verdict())
                    .as("icmp " + flow)
                    .isEqualTo(Verdict.ALLOWED);
        }
        assertThat(probe(netns(a), v6(b), "tcp", 9999).verdict())
                .as("a closed port over IPv6")
                .isEqualTo(Verdict.REFUSED);
    }

    @Test
    void aDualStackServiceIsReachedOnItsIpv6AndIpv4ClusterIps() throws Exception {
        var svc = sb.client
                .services()
                .inNamespace("dual")
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName("both")
                        .withNamespace("dual")
                        .endMetadata()
                        .withNewSpec()
                        .withIpFamilyPolicy("RequireDualStack")
                        .withSelector(Map.of("app", "backend"))
                        .addNewPort()
                        .withName("http")
                        .withProtocol("TCP")
                        .withPort(80)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        sb.client
                .pods()
                .inNamespace("dual")
                .withName("b")
                .edit(p -> new PodBuilder(p)
                        .editMetadata()
                        .addToLabels("app", "backend")
                        .endMetadata()
                        .build());
        List<String> vips = svc.getSpec().getClusterIPs();
        assertThat(vips).hasSize(2);
        for (String vip : vips) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(250))
                    .untilAsserted(
                            () -> assertThat(probe(netns(a), vip, "tcp", 80).answer())
                                    .as("a -> " + vip)
                                    .isEqualTo("b"));
        }
    }

    @Test
    void podsReachTheOutsideHostOverIpv6AsTheirNodesAddress() throws Exception {
        String outside = sb.sandbox.outside().addressV6().orElseThrow();
        EmulatedNode node1 = sb.sandbox.nodes().stream()
                .filter(n -> n.name().equals("node-1"))
                .findFirst()
                .orElseThrow();
        // the outside host's listener answers with the source it saw: node-1's IPv6 address, not the pod's (SNAT)
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> assertThat(probe(netns(a), outside, "tcp", 80).answer())
                                .isEqualTo("outside from " + node1.nodeIpV6().orElseThrow()));
        assertThat(probe(netns(a), outside, "udp", 53).answer())
                .isEqualTo("outside from " + node1.nodeIpV6().orElseThrow());
    }

    @Test
    void theHostNetworkReachesPodsAndPodsReachNodesOverIpv6() throws Exception {
        EmulatedNode node2 = sb.sandbox.nodes().stream()
                .filter(n -> n.name().equals("node-2"))
                .findFirst()
                .orElseThrow();
        String nodeNetns = node2.netns().name().orElseThrow();
        // a kubelet-style probe: from node-2's own namespace to its pod, through the management port
        assertThat(probe(nodeNetns, v6(b), "tcp", 80).verdict())
                .as("node-2 -> b over IPv6")
                .isEqualTo(Verdict.ALLOWED);
        String node2v6 = node2.nodeIpV6().orElseThrow();
        assertThat(probe(netns(a), node2v6, "icmp", 0).verdict())
                .as("a -> node-2's IPv6 address")
                .isEqualTo(Verdict.ALLOWED);
    }
}
