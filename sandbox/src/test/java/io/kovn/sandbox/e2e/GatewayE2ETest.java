package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.runtime.net.Command;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.EmulatedNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The node gateway with real packets on two emulated nodes: pods reach a host outside the cluster over TCP and UDP
 * through their node's GR_<node>, which SNATs them to the node IP (the outside host sees and answers that address); pod
 * → own node IP, node → pod (a kubelet-style TCP probe from the node namespace) and pod ↔ pod across nodes keep
 * working; ovn-trace of pod → outside shows the GR and its SNAT.
 */
@Tag("real")
class GatewayE2ETest {
    static SandboxFixture sb;
    static Pod pod1;
    static Pod pod2;
    static Pod host1;
    static EmulatedNode node1;
    static EmulatedNode node2;
    static Path outsideLog;

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(2);
        node1 = sb.sandbox.nodes().get(0);
        node2 = sb.sandbox.nodes().get(1);
        outsideLog = sb.layout.dir().resolve("outside.log");
        sb.sandbox.outside().serve(sb.layout.netutil(), "outside", List.of("tcp/8080", "udp/5353"), outsideLog);
        sb.namespace("gw", Map.of());
        sb.pod("gw", "pod-1", "node-1", Map.of());
        sb.pod("gw", "pod-2", "node-2", Map.of());
        sb.client
                .pods()
                .inNamespace("gw")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("host-1")
                        .withNamespace("gw")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("node-1")
                        .withHostNetwork(true)
                        .addNewContainer()
                        .withName("main")
                        .withImage("kovn/netutil")
                        .withPorts(
                                new ContainerPortBuilder()
                                        .withContainerPort(9090)
                                        .withProtocol("TCP")
                                        .build(),
                                new ContainerPortBuilder()
                                        .withContainerPort(30080)
                                        .withProtocol("TCP")
                                        .build())
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        pod1 = sb.awaitRunning("gw", "pod-1");
        pod2 = sb.awaitRunning("gw", "pod-2");
        host1 = sb.awaitRunning("gw", "host-1");
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    static String netns(Pod p) {
        return p.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION);
    }

    static Prober.Result probe(String netns, String protocol, String address, int port) throws Exception {
        return sb.prober.probe(netns, protocol, address, port, Duration.ofSeconds(2));
    }

    static void awaitAnswer(String netns, String protocol, String address, int port, String answer) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(probe(netns, protocol, address, port))
                        .as("%s -> %s %s/%d", netns, address, protocol, port)
                        .isEqualTo(new Prober.Result(Verdict.ALLOWED, answer)));
    }

    @Test
    void eachNodeAgentPublishesItsSharedGateway() {
        for (EmulatedNode n : List.of(node1, node2)) {
            Map<String, String> a =
                    sb.client.nodes().withName(n.name()).get().getMetadata().getAnnotations();
            L3GatewayConfig c = L3GatewayConfig.parse(a.get(OvnAnnotations.L3_GATEWAY_CONFIG));
            assertThat(c.mode()).isEqualTo("shared");
            assertThat(c.bridgeId()).isEqualTo("br-phy");
            assertThat(c.interfaceId()).isEqualTo("br-phy_" + n.name());
            assertThat(c.ipAddresses()).hasToString("[" + n.encapIp() + "/24]");
            assertThat(c.nextHops()).hasToString("[/" + sb.sandbox.outside().address() + "]");
            assertThat(a.get(OvnAnnotations.NODE_PRIMARY_IFADDR)).isEqualTo("{\"ipv4\":\"" + n.encapIp() + "/24\"}");
            // the bridge's MAC is pinned, and is the one the GR's external port uses
            assertThat(n.confDb().bridge("br-phy").orElseThrow().otherConfig()).containsEntry("hwaddr", c.macAddress());
            assertThat(n.confDb().root().orElseThrow().externalIds())
                    .containsEntry("ovn-bridge-mappings", "physnet:br-phy");
        }
    }

    @Test
    void podsReachTheOutsideWorldAsTheirNodesAddress() throws Exception {
        awaitAnswer(netns(pod1), "tcp", sb.sandbox.outside().address(), 8080, "outside from " + node1.encapIp());
        awaitAnswer(netns(pod1), "udp", sb.sandbox.outside().address(), 5353, "outside from " + node1.encapIp());
        awaitAnswer(netns(pod2), "tcp", sb.sandbox.outside().address(), 8080, "outside from " + node2.encapIp());
        awaitAnswer(netns(pod2), "udp", sb.sandbox.outside().address(), 5353, "outside from " + node2.encapIp());
        // the receiver's own record of what arrived: node addresses only, never a pod's
        String seen = Files.readString(outsideLog);
        assertThat(seen)
                .contains("tcp from " + node1.encapIp(), "udp from " + node2.encapIp())
                .doesNotContain(pod1.getStatus().getPodIP(), pod2.getStatus().getPodIP());
        // the replies came back through br-phy's OVN-marked conntrack entries
        String flows = Command.run(
                node1.runtime().bin("ovs-ofctl").toString(),
                "-O",
                "OpenFlow13",
                "dump-flows",
                "unix:" + node1.folder().resolve("br-phy.mgmt"),
                "table=1,ip,ct_mark=0x1");
        assertThat(flows.lines().filter(l -> l.contains("ct_state=+est+trk")).toList())
                .singleElement()
                .asString()
                .contains("cookie=0xdeff105")
                .doesNotContain("n_packets=0,");
    }

    @Test
    void theNodeItselfStillReachesTheOutsideWorld() throws Exception {
        awaitAnswer(
                node1.netns().name().orElseThrow(),
                "tcp",
                sb.sandbox.outside().address(),
                8080,
                "outside from " + node1.encapIp());
    }

    @Test
    void newConnectionsFromOutsideReachTheHostExceptInTheNodePortRange() throws Exception {
        String outside = sb.sandbox.outside().netns().name().orElseThrow();
        awaitAnswer(outside, "tcp", node1.encapIp(), 9090, "host-1");
        // host-1 listens on 30080 too, but the bridge hands the NodePort range to GR_node-1 (which has
        // no load balancer here): the host's listener must not answer from outside...
        assertThat(probe(outside, "tcp", node1.encapIp(), 30080).answer()).isNotEqualTo("host-1");
        // ...while the node itself still reaches it
        awaitAnswer(node1.netns().name().orElseThrow(), "tcp", node1.encapIp(), 30080, "host-1");
    }

    @Test
    void podToItsNodeNodeToPodAndPodToPodStillWork() throws Exception {
        awaitAnswer(netns(pod1), "tcp", node1.encapIp(), 9090, "host-1");
        // a kubelet-style TCP probe from the node's own namespace
        awaitAnswer(node1.netns().name().orElseThrow(), "tcp", pod1.getStatus().getPodIP(), 80, "pod-1");
        awaitAnswer(node2.netns().name().orElseThrow(), "tcp", pod2.getStatus().getPodIP(), 80, "pod-2");
        awaitAnswer(netns(pod1), "tcp", pod2.getStatus().getPodIP(), 80, "pod-2");
        awaitAnswer(netns(pod2), "udp", pod1.getStatus().getPodIP(), 53, "pod-1");
    }

    @Test
    void ovnTraceOfPodToOutsideShowsTheGatewayRouterAndItsSnat() {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> node1.nbctl("--bare", "--columns=name", "list", "Logical_Router")
                        .contains("GR_node-1"));
        PodNetwork n = PodNetworks.parse(pod1.getMetadata().getAnnotations().get(OvnAnnotations.POD_NETWORKS))
                .defaultNetwork()
                .orElseThrow();
        String routerMac = node1.nbctl("--bare", "--columns=mac", "find", "Logical_Router_Port", "name=rtos-node-1")
                .strip();
        String microflow = ("inport == \"gw_pod-1\" && eth.src == %s && eth.dst == %s && ip4.src == %s && ip4.dst == %s"
                        + " && ip.ttl == 64 && tcp && tcp.src == 33333 && tcp.dst == 8080")
                .formatted(
                        n.macAddress(),
                        routerMac,
                        pod1.getStatus().getPodIP(),
                        sb.sandbox.outside().address());
        List<String> argv = node1.runtime().ovnTraceNewConnection("unix:" + node1.sbSocket());
        argv.addAll(List.of("node-1", microflow));
        String out = Command.run(argv);
        assertThat(out)
                .contains(
                        "ingress(dp=\"GR_node-1\"",
                        "egress(dp=\"GR_node-1\"",
                        "ct_snat(" + node1.encapIp() + ")",
                        "outport=\"br-phy_node-1\"");
        assertThat(node1.nbctl("lr-nat-list", "GR_node-1")).contains("snat", node1.encapIp(), "10.244.0.0/16");
    }
}
