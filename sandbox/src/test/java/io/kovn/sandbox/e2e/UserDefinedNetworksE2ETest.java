package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.client.KovnResources;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.topology.NetworkGateway;
import io.kovn.runtime.net.Netns;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.trace.PolicyTracer;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Primary Layer3 user-defined networks in a three-node sandbox, with real packets: two networks over the same subnet
 * (blue and red) and a third (green) over another, pods of each on several nodes. Inside a network pods reach each
 * other across nodes over TCP, UDP and ICMP on their network's addresses (interface {@code ovn-udn1}); nothing crosses
 * between networks or between a network and the default network; the node's host still reaches a network pod's
 * default-network interface (kubelet probes), which nothing else does.
 */
@Tag("real")
class UserDefinedNetworksE2ETest {
    static SandboxFixture sb;
    static final String LABEL = "k8s.ovn.org/primary-user-defined-network";

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(3);
        sb.sandbox
                .outside()
                .serve(
                        sb.layout.netutil(),
                        "outside",
                        List.of("tcp/8080", "udp/5353"),
                        sb.layout.dir().resolve("outside.log"));
        sb.namespace("blue", Map.of(LABEL, ""));
        sb.namespace("red", Map.of(LABEL, ""));
        sb.namespace("green", Map.of(LABEL, ""));
        sb.namespace("plain", Map.of());
        sb.namespace("gone", Map.of(LABEL, ""));
        network("blue", "10.100.0.0/16");
        network("gone", "10.102.0.0/16");
        // a Layer2 ClusterUserDefinedNetwork over two namespaces: one switch across the nodes
        sb.namespace("flat-a", Map.of(LABEL, "", "team", "flat"));
        sb.namespace("flat-b", Map.of(LABEL, "", "team", "flat"));
        sb.client
                .genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: ClusterUserDefinedNetwork
                metadata: {name: flat}
                spec:
                  namespaceSelector: {matchLabels: {team: flat}}
                  network: {topology: Layer2, layer2: {role: Primary, subnets: [10.120.0.0/24], mtu: 1300}}
                """, GenericKubernetesResource.class))
                .create();
        network("red", "10.100.0.0/16"); // the same subnet as blue: networks are apart, addresses may repeat
        network("green", "10.101.0.0/16");
        for (String ns : List.of("blue", "red", "green")) {
            sb.pod(ns, ns + "-1", "node-1", Map.of());
            sb.pod(ns, ns + "-2", "node-2", Map.of("app", "web"));
        }
        sb.pod("blue", "blue-3", "node-3", Map.of("app", "web"));
        sb.pod("plain", "plain-1", "node-1", Map.of());
        sb.pod("gone", "gone-1", "node-2", Map.of());
        sb.pod("flat-a", "fa-1", "node-1", Map.of());
        sb.pod("flat-a", "fa-2", "node-3", Map.of("app", "flat"));
        sb.pod("flat-b", "fb-1", "node-2", Map.of());
        for (String ns : List.of("blue", "red", "green")) {
            sb.awaitRunning(ns, ns + "-1");
            sb.awaitRunning(ns, ns + "-2");
        }
        sb.awaitRunning("blue", "blue-3");
        sb.awaitRunning("plain", "plain-1");
        sb.awaitRunning("gone", "gone-1");
        sb.awaitRunning("flat-a", "fa-1");
        sb.awaitRunning("flat-a", "fa-2");
        sb.awaitRunning("flat-b", "fb-1");
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    static void network(String ns, String cidr) {
        sb.client
                .genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(ns)
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: net, namespace: %s}
                spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: %s}]}}
                """.formatted(ns, cidr), GenericKubernetesResource.class))
                .create();
    }

    /** Every row of the NB tables kovn writes, as text. */
    static String nbDump(EmulatedNode n) {
        StringBuilder sb = new StringBuilder();
        for (String table : List.of(
                "Logical_Switch",
                "Logical_Switch_Port",
                "Logical_Router",
                "Logical_Router_Port",
                "Logical_Router_Static_Route",
                "NAT",
                "Load_Balancer",
                "Load_Balancer_Group",
                "ACL",
                "Port_Group",
                "Address_Set")) {
            sb.append(n.nbctl("list", table));
        }
        return sb.toString();
    }

    @Test
    void badNetworksAreRefusedInTheirStatusAndChangeNothing() {
        sb.namespace("bad", Map.of(LABEL, ""));
        network("bad", "10.244.0.0/16"); // the cluster network
        sb.client
                .genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("blue")
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: second, namespace: blue}
                spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.130.0.0/16}]}}
                """, GenericKubernetesResource.class))
                .create();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(condition("bad", "net"))
                    .containsEntry("status", "False")
                    .containsEntry("reason", "SubnetOverlap");
            assertThat(condition("blue", "second"))
                    .containsEntry("status", "False")
                    .containsEntry("reason", "PrimaryNetworkConflict");
        });
        assertThat(sb.client.v1().events().inNamespace("bad").list().getItems())
                .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("SubnetOverlap"));
        for (EmulatedNode n : sb.sandbox.nodes()) {
            assertThat(nbDump(n)).doesNotContain("bad_net").doesNotContain("blue_second");
        }
        sb.client
                .genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("blue")
                .withName("second")
                .delete();
        sb.client
                .genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("bad")
                .withName("net")
                .delete();
    }

    static Map<String, Object> condition(String ns, String name) {
        var o = sb.client
                .genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(ns)
                .withName(name)
                .get();
        if (!(o.getAdditionalProperties().get("status") instanceof Map<?, ?> st)
                || !(st.get("conditions") instanceof List<?> cs)) {
            return Map.of();
        }
        Map<String, Object> out = new HashMap<>();
        cs.stream()
                .filter(c -> c instanceof Map<?, ?> m && "NetworkCreated".equals(m.get("type")))
                .findFirst()
                .ifPresent(c -> ((Map<?, ?>) c).forEach((k, v) -> out.put(String.valueOf(k), v)));
        return out;
    }

    static Pod pod(String ns, String name) {
        return sb.client.pods().inNamespace(ns).withName(name).get();
    }

    static PodNetworks networks(String ns, String name) {
        return PodNetworks.parse(pod(ns, name).getMetadata().getAnnotations().get(OvnAnnotations.POD_NETWORKS));
    }

    /** The pod's address on its primary user-defined network. */
    static String udnIp(String ns, String name) {
        return IpLiterals.format(networks(ns, name)
                .primaryUserDefined()
                .orElseThrow()
                .getValue()
                .ipAddresses()
                .getFirst()
                .address());
    }

    /** The pod's address on the default network (its infrastructure interface for network pods). */
    static String defaultIp(String ns, String name) {
        return IpLiterals.format(networks(ns, name)
                .defaultNetwork()
                .orElseThrow()
                .ipAddresses()
                .getFirst()
                .address());
    }

    static String netns(String ns, String name) {
        return pod(ns, name).getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION);
    }

    static Prober.Result probe(String fromNs, String from, String ip, String protocol) throws Exception {
        return sb.prober.probe(
                netns(fromNs, from), protocol, ip, protocol.equals("udp") ? 5353 : 80, Duration.ofSeconds(2));
    }

    @Test
    void podsOfANetworkTalkAcrossNodesOnTheirNetworksAddresses() throws Exception {
        assertThat(udnIp("blue", "blue-1")).startsWith("10.100.");
        for (String to : List.of("blue-2", "blue-3")) {
            for (String protocol : List.of("tcp", "udp", "icmp")) {
                Prober.Result r = probe("blue", "blue-1", udnIp("blue", to), protocol);
                assertThat(r.verdict()).as(protocol + " blue-1 -> " + to).isEqualTo(Verdict.ALLOWED);
                if (!protocol.equals("icmp")) assertThat(r.answer()).isEqualTo(to);
            }
        }
        assertThat(probe("green", "green-1", udnIp("green", "green-2"), "tcp").answer())
                .isEqualTo("green-2");
    }

    @Test
    void aLayer2NetworkSpansNamespacesAndNodesOnOneSubnet() throws Exception {
        PodNetworks fa1 = networks("flat-a", "fa-1");
        assertThat(fa1.byNetwork()).containsKey("flat-a/flat");
        assertThat(fa1.primaryUserDefined()
                        .orElseThrow()
                        .getValue()
                        .ipAddresses()
                        .getFirst()
                        .toString())
                .startsWith("10.120.0.")
                .endsWith("/24");
        for (String[] to : List.of(new String[] {"flat-a", "fa-2"}, new String[] {"flat-b", "fb-1"})) {
            for (String protocol : List.of("tcp", "udp", "icmp")) {
                Prober.Result r = probe("flat-a", "fa-1", udnIp(to[0], to[1]), protocol);
                assertThat(r.verdict()).as(protocol + " fa-1 -> " + to[1]).isEqualTo(Verdict.ALLOWED);
                if (!protocol.equals("icmp")) assertThat(r.answer()).isEqualTo(to[1]);
            }
        }
        assertThat(probe("flat-b", "fb-1", udnIp("flat-a", "fa-2"), "tcp").answer())
                .isEqualTo("fa-2");
        for (String protocol : List.of("tcp", "icmp")) {
            assertThat(probe("flat-a", "fa-1", udnIp("blue", "blue-2"), protocol)
                            .verdict())
                    .as(protocol + " flat -> blue")
                    .isNotEqualTo(Verdict.ALLOWED);
            assertThat(probe("flat-a", "fa-1", defaultIp("plain", "plain-1"), protocol)
                            .verdict())
                    .as(protocol + " flat -> default")
                    .isNotEqualTo(Verdict.ALLOWED);
        }
    }

    @Test
    void aNetworksMtuIsItsPodsInterfaceMtuAndCarriesFullSizePacketsAcrossNodes() {
        Netns fa1 = Netns.named(netns("flat-a", "fa-1"));
        int defaultMtu = Netns.named(netns("plain", "plain-1")).mtu("eth0");
        assertThat(defaultMtu).isNotEqualTo(1300);
        assertThat(fa1.mtu("ovn-udn1")).as("flat's spec mtu").isEqualTo(1300);
        assertThat(fa1.mtu("eth0"))
                .as("the default network's interface keeps the node's")
                .isEqualTo(defaultMtu);
        Netns blue1 = Netns.named(netns("blue", "blue-1"));
        assertThat(blue1.mtu("ovn-udn1"))
                .as("a network without mtu: the node's")
                .isEqualTo(defaultMtu);
        // 1272 bytes of ICMP payload + 8 + 20 = 1300: a full-size packet crosses to fa-2 on node-3 unfragmented;
        // one byte more does not leave the pod
        String fa2 = udnIp("flat-a", "fa-2");
        assertThat(fa1.tryExec("ping", "-c", "1", "-W", "2", "-M", "do", "-s", "1272", fa2)
                        .ok())
                .isTrue();
        var tooBig = fa1.tryExec("ping", "-c", "1", "-W", "2", "-M", "do", "-s", "1273", fa2);
        assertThat(tooBig.ok()).isFalse();
        assertThat(tooBig.stdout() + tooBig.stderr()).contains("mtu=1300");
    }

    @Test
    void aNetworksPodsReachItsClusterIpOnItsBackendsNetworkAddressesAndNoOneElseDoes() throws Exception {
        var svc = sb.client
                .services()
                .inNamespace("blue")
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .withNamespace("blue")
                        .endMetadata()
                        .withNewSpec()
                        .withSelector(Map.of("app", "web"))
                        .addNewPort()
                        .withName("http")
                        .withProtocol("TCP")
                        .withPort(80)
                        .endPort()
                        .addNewPort()
                        .withName("dns")
                        .withProtocol("UDP")
                        .withPort(53)
                        .withNewTargetPort(5353)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        String vip = svc.getSpec().getClusterIP();
        Set<String> answered = new HashSet<>();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    Prober.Result r = probe("blue", "blue-1", vip, "tcp");
                    if (r.verdict() == Verdict.ALLOWED) answered.add(r.answer());
                    return answered.containsAll(List.of("blue-2", "blue-3"));
                });
        assertThat(answered).as("only the service's backends answer").containsOnly("blue-2", "blue-3");
        assertThat(sb.prober
                        .probe(netns("blue", "blue-1"), "udp", vip, 53, Duration.ofSeconds(2))
                        .verdict())
                .as("udp/53 to the cluster IP (target port 5353)")
                .isEqualTo(Verdict.ALLOWED);
        for (String[] from : List.of(
                new String[] {"red", "red-1"}, new String[] {"plain", "plain-1"}, new String[] {"flat-a", "fa-1"})) {
            Prober.Result r = probe(from[0], from[1], vip, "tcp");
            assertThat(r.verdict() == Verdict.ALLOWED
                            && List.of("blue-2", "blue-3").contains(r.answer()))
                    .as(from[1] + " -> blue's cluster IP: " + r)
                    .isFalse();
        }

        // kovn trace: the network's load balancer on blue-1's switch, then each backend's zone on the network's
        // transit switch, at the backends' network addresses
        PolicyTracer.ServiceResult traced = traceToService("blue", "blue-1", "web", 80);
        assertThat(traced.loadBalancers()).containsExactly("blue_net_Service_blue/web_TCP_cluster");
        assertThat(traced.backends()).hasSize(2).allSatisfy(b -> {
            assertThat(b.backend().ip()).as(b.result().render(true)).startsWith("10.100.");
            assertThat(b.result().allowed()).as(b.result().render(true)).isTrue();
            assertThat(b.result().hops()).as(b.result().render(true)).hasSize(2);
            assertThat(b.result().hops().get(1).datapath()).isEqualTo("blue_net_transit_switch");
        });
    }

    @Test
    void aLayer2NetworksPodsReachItsClusterIpAcrossNodesAndKovnTraceFollowsIt() throws Exception {
        var svc = sb.client
                .services()
                .inNamespace("flat-a")
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName("flat")
                        .withNamespace("flat-a")
                        .endMetadata()
                        .withNewSpec()
                        .withSelector(Map.of("app", "flat"))
                        .addNewPort()
                        .withName("http")
                        .withProtocol("TCP")
                        .withPort(80)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        String vip = svc.getSpec().getClusterIP();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() ->
                        assertThat(probe("flat-a", "fa-1", vip, "tcp").answer()).isEqualTo("fa-2"));
        // fa-1 on node-1 to fa-2 on node-3: the switch's load balancer, the transit router back onto the switch,
        // the remote port of fa-2, then node-3's zone from the router's port
        PolicyTracer.ServiceResult traced = traceToService("flat-a", "fa-1", "flat", 80);
        assertThat(traced.backends()).hasSize(1);
        PolicyTracer.Result r = traced.backends().getFirst().result();
        assertThat(r.allowed()).as(r.render(true)).isTrue();
        assertThat(r.hops()).as(r.render(true)).hasSize(2);
        assertThat(r.hops().get(1).zone()).isEqualTo("node-3");
        assertThat(r.hops().get(1).microflow()).startsWith("inport == \"stotr-cluster_udn_flat_ovn_layer2_switch\"");
        assertThat(traced.backends().getFirst().backend().ip()).isEqualTo(udnIp("flat-a", "fa-2"));
    }

    static PolicyTracer.ServiceResult traceToService(String ns, String client, String service, int port) {
        return sb.tracer().traceToService(pod(ns, client), sb.serviceTarget(ns, service, port), sb::podByRef);
    }

    @Test
    void networkPodsReachTheOutsideHostAsTheirNodesAddress() throws Exception {
        String outside = sb.sandbox.outside().address();
        EmulatedNode node1 = sb.sandbox.nodes().stream()
                .filter(n -> n.name().equals("node-1"))
                .findFirst()
                .orElseThrow();
        // blue and red share a subnet (and the same address on node-2): each leaves through its own gateway router
        for (String[] from : List.of(
                new String[] {"blue", "blue-1"}, new String[] {"red", "red-1"}, new String[] {"flat-a", "fa-1"})) {
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(sb.prober
                                    .probe(netns(from[0], from[1]), "tcp", outside, 8080, Duration.ofSeconds(2))
                                    .answer())
                            .as(from[1] + " -> outside")
                            .isEqualTo("outside from " + node1.encapIp()));
        }
        assertThat(sb.prober
                        .probe(netns("red", "red-2"), "udp", outside, 5353, Duration.ofSeconds(2))
                        .answer())
                .isEqualTo("outside from "
                        + sb.sandbox.nodes().stream()
                                .filter(n -> n.name().equals("node-2"))
                                .findFirst()
                                .orElseThrow()
                                .encapIp());
    }

    @Test
    void twoNetworksOverTheSameSubnetWorkSideBySide() throws Exception {
        assertThat(udnIp("red", "red-1")).startsWith("10.100.");
        for (String protocol : List.of("tcp", "udp", "icmp")) {
            assertThat(probe("red", "red-1", udnIp("red", "red-2"), protocol).verdict())
                    .as(protocol + " red-1 -> red-2")
                    .isEqualTo(Verdict.ALLOWED);
        }
        // the same address in both networks answers as that network's pod
        assertThat(udnIp("red", "red-2")).isEqualTo(udnIp("blue", "blue-2"));
        assertThat(probe("red", "red-1", udnIp("red", "red-2"), "tcp").answer()).isEqualTo("red-2");
        assertThat(probe("blue", "blue-1", udnIp("blue", "blue-2"), "tcp").answer())
                .isEqualTo("blue-2");
    }

    @Test
    void nothingCrossesBetweenNetworksOrToAndFromTheDefaultNetwork() throws Exception {
        for (String protocol : List.of("tcp", "udp", "icmp")) {
            assertThat(probe("blue", "blue-1", udnIp("green", "green-2"), protocol)
                            .verdict())
                    .as(protocol + " blue -> green")
                    .isNotEqualTo(Verdict.ALLOWED);
            assertThat(probe("green", "green-1", udnIp("blue", "blue-2"), protocol)
                            .verdict())
                    .as(protocol + " green -> blue")
                    .isNotEqualTo(Verdict.ALLOWED);
            assertThat(probe("blue", "blue-1", defaultIp("plain", "plain-1"), protocol)
                            .verdict())
                    .as(protocol + " blue -> default pod")
                    .isNotEqualTo(Verdict.ALLOWED);
            assertThat(probe("plain", "plain-1", defaultIp("blue", "blue-1"), protocol)
                            .verdict())
                    .as(protocol + " default pod -> blue pod's default interface")
                    .isNotEqualTo(Verdict.ALLOWED);
            assertThat(probe("plain", "plain-1", udnIp("blue", "blue-2"), protocol)
                            .verdict())
                    .as(protocol + " default pod -> blue pod's network address")
                    .isNotEqualTo(Verdict.ALLOWED);
            assertThat(probe("blue", "blue-1", defaultIp("blue", "blue-2"), protocol)
                            .verdict())
                    .as(protocol + " blue-1 -> blue-2's default interface")
                    .isNotEqualTo(Verdict.ALLOWED);
        }
    }

    @Test
    void theHostStillReachesANetworkPodsDefaultInterface() throws Exception {
        EmulatedNode node1 = sb.sandbox.nodes().stream()
                .filter(n -> n.name().equals("node-1"))
                .findFirst()
                .orElseThrow();
        String nodeNetns = node1.netns().name().orElseThrow();
        Prober.Result r = sb.prober.probe(nodeNetns, "tcp", defaultIp("blue", "blue-1"), 80, Duration.ofSeconds(3));
        assertThat(r.verdict()).as("node-1 -> blue-1 on eth0 (a kubelet probe)").isEqualTo(Verdict.ALLOWED);
        assertThat(r.answer()).isEqualTo("blue-1");
    }

    @Test
    void aDeletedNetworkWithPodsWaitsForThemAndThenLeavesNoRows() {
        // the network is in use: its deletion is deferred by the finalizer while its pod lives
        var udn = sb.client
                .genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("gone")
                .withName("net");
        int id = Integer.parseInt(udn.get().getMetadata().getAnnotations().get("k8s.ovn.org/network-id"));
        String masquerade =
                IpLiterals.format(NetworkGateway.masqueradeAddress(id).address());
        assertThat(nbDump(sb.sandbox.nodes().get(1)))
                .as("the network's rows before")
                .contains("gone_net")
                .contains(masquerade);
        udn.delete();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> udn.get() != null);
        assertThat(sb.sandbox.nodes().stream()
                        .anyMatch(n -> !n.nbctl(
                                        "--bare",
                                        "--columns=name",
                                        "find",
                                        "Logical_Switch_Port",
                                        "external_ids:k8s.ovn.org/network=gone_net",
                                        "external_ids:pod=true")
                                .isBlank()))
                .as("the pod's port stays")
                .isTrue();
        sb.client.pods().inNamespace("gone").delete();
        await().atMost(Duration.ofSeconds(60)).until(() -> udn.get() == null);
        for (EmulatedNode n : sb.sandbox.nodes()) {
            for (String table : List.of(
                    "Logical_Switch",
                    "Logical_Switch_Port",
                    "Logical_Router",
                    "Logical_Router_Port",
                    "Logical_Router_Static_Route")) {
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(n.nbctl(
                                        "--bare",
                                        "--columns=_uuid",
                                        "find",
                                        table,
                                        "external_ids:k8s.ovn.org/owner-controller=gone_net-network-controller"))
                                .as(table + " rows on " + n.name())
                                .isBlank());
            }
            // nothing in the whole NB names it or its masquerade address (its NAT on GR_<node> went too)
            assertThat(nbDump(n))
                    .as("NB of " + n.name())
                    .doesNotContain("gone_net")
                    .doesNotContain("gone.net")
                    .doesNotContain(masquerade);
        }
    }
}
