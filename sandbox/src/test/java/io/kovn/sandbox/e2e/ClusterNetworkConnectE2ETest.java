package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.client.KovnResources;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.trace.PolicyTracer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * ClusterNetworkConnect (specification 004) in a two-node sandbox with real packets. Networks A, B, D (Layer3 UDNs) and
 * C (a Layer2 CUDN) start isolated; a CNC connects A and C both ways across the nodes, a second connects C and D
 * without connecting A and D; a policy in A admits only C's pods it names, an AdminNetworkPolicy denies C into A;
 * relabelling C out of a selector disconnects it; deleting the CNCs isolates again and leaves NB as it was. A
 * {@code ServiceNetwork}-only CNC lets B reach D's ClusterIP, not D's pods. Overlapping networks and bad connect
 * subnets are refused in the status, and what can be connected still is (the younger of two overlapping networks is
 * connected to none).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class ClusterNetworkConnectE2ETest {
    static SandboxFixture sb;
    static final String LABEL = "k8s.ovn.org/primary-user-defined-network";
    static final Duration CONVERGE = Duration.ofSeconds(30);

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(2);
        for (String ns : List.of("a", "b", "d", "e")) sb.namespace(ns, Map.of(LABEL, ""));
        sb.namespace("c1", Map.of(LABEL, "", "team", "c"));
        udn("a", "10.140.0.0/16");
        udn("b", "10.141.0.0/16");
        udn("d", "10.143.0.0/16");
        udn("e", "10.140.0.0/16"); // overlaps A
        sb.client
                .genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: ClusterUserDefinedNetwork
                metadata: {name: c, labels: {connect: "yes"}}
                spec:
                  namespaceSelector: {matchLabels: {team: c}}
                  network: {topology: Layer2, layer2: {role: Primary, subnets: [10.150.0.0/24]}}
                """, GenericKubernetesResource.class))
                .create();
        sb.pod("a", "a-1", "node-1", Map.of());
        sb.pod("a", "a-2", "node-2", Map.of());
        sb.pod("b", "b-1", "node-1", Map.of());
        sb.pod("c1", "c-1", "node-2", Map.of("role", "friend"));
        sb.pod("c1", "c-2", "node-1", Map.of());
        sb.pod("d", "d-1", "node-2", Map.of("app", "web"));
        sb.pod("d", "d-2", "node-1", Map.of());
        sb.pod("e", "e-1", "node-1", Map.of());
        for (String[] p : List.of(
                new String[] {"a", "a-1"},
                new String[] {"a", "a-2"},
                new String[] {"b", "b-1"},
                new String[] {"c1", "c-1"},
                new String[] {"c1", "c-2"},
                new String[] {"d", "d-1"},
                new String[] {"d", "d-2"},
                new String[] {"e", "e-1"})) {
            sb.awaitRunning(p[0], p[1]);
        }
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    static void udn(String ns, String cidr) {
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

    /**
     * A CNC over the primary networks of {@code namespaces} and the CUDNs labelled {@code connect=yes} if
     * {@code withC}.
     */
    static void cnc(String name, List<String> namespaces, boolean withC, String cidr, String connectivity) {
        StringBuilder selectors = new StringBuilder();
        if (!namespaces.isEmpty()) {
            selectors.append("""
                      - networkSelectionType: PrimaryUserDefinedNetworks
                        primaryUserDefinedNetworkSelector:
                          namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [%s]}]}
                    """.formatted(String.join(", ", namespaces)));
        }
        if (withC) {
            selectors.append("""
                      - networkSelectionType: ClusterUserDefinedNetworks
                        clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {connect: "yes"}}}
                    """);
        }
        sb.client
                .genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .resource(Serialization.unmarshal(
                        """
                apiVersion: k8s.ovn.org/v1
                kind: ClusterNetworkConnect
                metadata: {name: %s}
                spec:
                  networkSelectors:
                %s
                  connectSubnets: [{cidr: %s, networkPrefix: 24}]
                  connectivity: [%s]
                """.formatted(name, selectors.toString().stripTrailing(), cidr, connectivity),
                        GenericKubernetesResource.class))
                .create();
    }

    static void deleteCnc(String name) {
        sb.client
                .genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .withName(name)
                .delete();
    }

    static Map<String, Object> accepted(String name) {
        var o = sb.client
                .genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .withName(name)
                .get();
        Map<String, Object> out = new HashMap<>();
        if (o != null
                && o.getAdditionalProperties().get("status") instanceof Map<?, ?> st
                && st.get("conditions") instanceof List<?> cs) {
            cs.stream()
                    .filter(c -> c instanceof Map<?, ?> m && "Accepted".equals(m.get("type")))
                    .findFirst()
                    .ifPresent(c -> ((Map<?, ?>) c).forEach((k, v) -> out.put(String.valueOf(k), v)));
        }
        return out;
    }

    static String ip(String ns, String name) {
        var pod = sb.client.pods().inNamespace(ns).withName(name).get();
        return IpLiterals.format(
                PodNetworks.parse(pod.getMetadata().getAnnotations().get(OvnAnnotations.POD_NETWORKS))
                        .primaryUserDefined()
                        .orElseThrow()
                        .getValue()
                        .ipAddresses()
                        .getFirst()
                        .address());
    }

    static Prober.Result probe(String fromNs, String from, String ip, String protocol) throws Exception {
        String netns = sb.client
                .pods()
                .inNamespace(fromNs)
                .withName(from)
                .get()
                .getMetadata()
                .getAnnotations()
                .get(SandboxLayout.NETNS_ANNOTATION);
        return sb.prober.probe(netns, protocol, ip, protocol.equals("udp") ? 5353 : 80, Duration.ofSeconds(2));
    }

    /** Waits until {@code from} reaches {@code to} over TCP (the zones converge), then checks UDP and ICMP once. */
    static void connected(String fromNs, String from, String toNs, String to) throws Exception {
        String ip = ip(toNs, to);
        await().atMost(CONVERGE)
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(probe(fromNs, from, ip, "tcp").answer())
                        .as(from + " -> " + to + " tcp")
                        .isEqualTo(to));
        assertThat(probe(fromNs, from, ip, "udp").answer())
                .as(from + " -> " + to + " udp")
                .isEqualTo(to);
        assertThat(probe(fromNs, from, ip, "icmp").verdict())
                .as(from + " -> " + to + " icmp")
                .isEqualTo(Verdict.ALLOWED);
    }

    static void apart(String fromNs, String from, String toNs, String to) throws Exception {
        String ip = ip(toNs, to);
        await().atMost(CONVERGE)
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(probe(fromNs, from, ip, "tcp").verdict())
                        .as(from + " -> " + to + " tcp")
                        .isNotEqualTo(Verdict.ALLOWED));
        assertThat(probe(fromNs, from, ip, "icmp").verdict())
                .as(from + " -> " + to + " icmp")
                .isNotEqualTo(Verdict.ALLOWED);
    }

    /** {@code kovn trace}'s verdict on tcp/80 from one pod to another, through {@code zones} zones; its text. */
    static AbstractStringAssert<?> traced(
            String fromNs, String from, String toNs, String to, boolean allowed, int zones) {
        var pods = sb.client.pods();
        PolicyTracer.Result r = sb.tracer()
                .trace(
                        pods.inNamespace(fromNs).withName(from).get(),
                        pods.inNamespace(toNs).withName(to).get(),
                        "tcp",
                        80);
        String what = "trace " + from + " -> " + to + "\n" + r.render(true);
        assertThat(r.allowed()).as(what).isEqualTo(allowed);
        assertThat(r.hops()).as(what).hasSize(zones);
        return assertThat(r.render(false));
    }

    /** The NB rows of the tables kovn writes, as text. */
    static String nbDump(EmulatedNode n) {
        StringBuilder out = new StringBuilder();
        for (String table : List.of(
                "Logical_Switch",
                "Logical_Switch_Port",
                "Logical_Router",
                "Logical_Router_Port",
                "Logical_Router_Static_Route",
                "Logical_Router_Policy",
                "NAT",
                "Load_Balancer",
                "Load_Balancer_Group",
                "ACL",
                "Port_Group",
                "Address_Set")) {
            out.append(n.nbctl("list", table));
        }
        return out.toString();
    }

    @Test
    @Order(1)
    void connectedNetworksTalkAcrossNodesNonTransitivelyAndDisconnectLeavingNothing() throws Exception {
        apart("a", "a-1", "c1", "c-1");
        apart("c1", "c-1", "a", "a-1");
        Map<String, String> before = new HashMap<>();
        for (EmulatedNode n : sb.sandbox.nodes()) before.put(n.name(), nbDump(n));

        // CNC-1: A (by its namespace) and C (by the CUDN's label), both ways, across the nodes
        cnc("cnc-1", List.of("a"), true, "192.168.0.0/16", "PodNetwork");
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(accepted("cnc-1"))
                        .containsEntry("status", "True")
                        .containsEntry("reason", "ResourceAllocationSucceeded"));
        connected("a", "a-1", "c1", "c-1");
        connected("c1", "c-2", "a", "a-2");
        connected("c1", "c-1", "a", "a-1");
        connected("a", "a-2", "c1", "c-1"); // same node
        // kovn trace follows them: into C's Layer2 switch and through its remote port of c-1 to node-2; out of C
        // through its transit router and A's transit switch; inside C from node-2 to node-1
        traced("a", "a-1", "c1", "c-1", true, 2);
        traced("c1", "c-1", "a", "a-1", true, 2);
        traced("a", "a-2", "c1", "c-1", true, 1);
        traced("c1", "c-1", "c1", "c-2", true, 2);
        apart("b", "b-1", "a", "a-1");
        apart("a", "a-1", "d", "d-1");

        // CNC-2: C and D; A and D stay apart (connections are not transitive)
        cnc("cnc-2", List.of("d"), true, "192.169.0.0/16", "PodNetwork");
        connected("c1", "c-1", "d", "d-2");
        connected("d", "d-1", "c1", "c-2");
        apart("a", "a-1", "d", "d-1");
        apart("d", "d-2", "a", "a-2");

        // a NetworkPolicy in A admitting only C's pods labelled role=friend holds across the connection
        sb.client
                .network()
                .v1()
                .networkPolicies()
                .inNamespace("a")
                .resource(new NetworkPolicyBuilder()
                        .withNewMetadata()
                        .withName("friends")
                        .withNamespace("a")
                        .endMetadata()
                        .withNewSpec()
                        .withNewPodSelector()
                        .endPodSelector()
                        .addNewIngress()
                        .addNewFrom()
                        .withNewNamespaceSelector()
                        .addToMatchLabels("team", "c")
                        .endNamespaceSelector()
                        .withNewPodSelector()
                        .addToMatchLabels("role", "friend")
                        .endPodSelector()
                        .endFrom()
                        .endIngress()
                        .withPolicyTypes("Ingress")
                        .endSpec()
                        .build())
                .create();
        apart("c1", "c-2", "a", "a-1");
        connected("c1", "c-1", "a", "a-1");
        traced("c1", "c-2", "a", "a-1", false, 1)
                .contains("not delivered to a.net_a_a-1: dropped by ingress ACL NP:a:Ingress")
                .contains("decided by: ingress: isolated by NetworkPolicy in namespace a");
        traced("c1", "c-1", "a", "a-1", true, 2);
        sb.client
                .network()
                .v1()
                .networkPolicies()
                .inNamespace("a")
                .withName("friends")
                .delete();
        connected("c1", "c-2", "a", "a-1");
        // and an AdminNetworkPolicy denying C's namespaces into A
        var anps = sb.client.genericKubernetesResources("policy.networking.k8s.io/v1alpha1", "AdminNetworkPolicy");
        anps.resource(Serialization.unmarshal("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata: {name: no-c-into-a}
                spec:
                  priority: 10
                  subject: {namespaces: {matchLabels: {kubernetes.io/metadata.name: a}}}
                  ingress: [{name: deny-c, action: Deny, from: [{namespaces: {matchLabels: {team: c}}}]}]
                """, GenericKubernetesResource.class))
                .create();
        apart("c1", "c-1", "a", "a-2");
        anps.withName("no-c-into-a").delete();
        connected("c1", "c-1", "a", "a-2");

        // relabelling C out of the CNCs' selectors disconnects it from A and D; back in, connected again
        var cudn = sb.client
                .genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                .withName("c");
        cudn.edit(o -> {
            o.getMetadata().getLabels().remove("connect");
            return o;
        });
        apart("a", "a-1", "c1", "c-1");
        apart("c1", "c-1", "d", "d-2");
        cudn.edit(o -> {
            o.getMetadata().getLabels().put("connect", "yes");
            return o;
        });
        connected("a", "a-1", "c1", "c-1");

        // deleting the CNCs isolates again and leaves NB as it was before them
        deleteCnc("cnc-2");
        deleteCnc("cnc-1");
        apart("a", "a-1", "c1", "c-1");
        apart("c1", "c-1", "d", "d-2");
        for (EmulatedNode n : sb.sandbox.nodes()) {
            await().atMost(CONVERGE)
                    .untilAsserted(
                            () -> assertThat(nbDump(n)).as("NB of " + n.name()).isEqualTo(before.get(n.name())));
        }
    }

    @Test
    @Order(2)
    void serviceNetworkAloneReachesTheOtherNetworksClusterIpsNotItsPods() throws Exception {
        // before any service: no load balancer on the switches, the pods stay apart all the same
        cnc("cnc-svc", List.of("b", "d"), false, "192.170.0.0/16", "ServiceNetwork");
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(accepted("cnc-svc")).containsEntry("status", "True"));
        apart("b", "b-1", "d", "d-1");
        var svc = sb.client
                .services()
                .inNamespace("d")
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .withNamespace("d")
                        .endMetadata()
                        .withNewSpec()
                        .withSelector(Map.of("app", "web"))
                        .addNewPort()
                        .withName("http")
                        .withProtocol("TCP")
                        .withPort(80)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        String vip = svc.getSpec().getClusterIP();
        await().atMost(CONVERGE)
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(probe("b", "b-1", vip, "tcp").answer())
                        .as("b-1 -> d's ClusterIP")
                        .isEqualTo("d-1"));
        apart("b", "b-1", "d", "d-1");
        apart("d", "d-2", "b", "b-1");
        // inside a network nothing changed
        connected("d", "d-2", "d", "d-1");
        deleteCnc("cnc-svc");
        await().atMost(CONVERGE)
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(probe("b", "b-1", vip, "tcp").verdict())
                        .as("b-1 -> d's ClusterIP after the CNC")
                        .isNotEqualTo(Verdict.ALLOWED));
        sb.client.services().inNamespace("d").withName("web").delete();
    }

    @Test
    @Order(3)
    void overlappingNetworksAreReportedAndTheYoungerIsConnectedToNone() throws Exception {
        cnc("cnc-overlap", List.of("a", "b", "e"), false, "192.171.0.0/16", "PodNetwork");
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(accepted("cnc-overlap"))
                        .containsEntry("status", "False")
                        .containsEntry("reason", "ResourceAllocationFailed"));
        assertThat(String.valueOf(accepted("cnc-overlap").get("message")))
                .contains("a_net")
                .contains("e_net")
                .contains("e_net is connected to no network of this CNC");
        // A (the older) and B connected; E, overlapping A, to nothing: B could not tell E's addresses from A's
        connected("a", "a-1", "b", "b-1");
        connected("b", "b-1", "a", "a-1");
        apart("e", "e-1", "b", "b-1");
        for (EmulatedNode n : sb.sandbox.nodes()) {
            assertThat(n.nbctl("lr-policy-list", "a_net_ovn_cluster_router")).doesNotContain("10.140.0.0/16");
            assertThat(n.nbctl("lr-policy-list", "e_net_ovn_cluster_router")).doesNotContain("10.140.0.0/16");
        }
        deleteCnc("cnc-overlap");
        apart("a", "a-1", "b", "b-1");
    }

    @Test
    @Order(4)
    void badConnectSubnetsAreRefusedAndProgramNothing() {
        cnc("cnc-bad", List.of("a", "b"), false, "10.244.0.0/16", "PodNetwork"); // the cluster's pod network
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(accepted("cnc-bad"))
                        .containsEntry("status", "False")
                        .containsEntry("reason", "ResourceAllocationFailed"));
        for (EmulatedNode n : sb.sandbox.nodes()) {
            assertThat(n.nbctl("--bare", "--columns=name", "list", "Logical_Router"))
                    .doesNotContain("connect_router_cnc-bad");
        }
        var bad = sb.client
                .genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .withName("cnc-bad");
        assertThatThrownBy(() -> bad.patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"connectSubnets\":[{\"cidr\":\"192.172.0.0/16\",\"networkPrefix\":24}]}}"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("immutable");
        deleteCnc("cnc-bad");
    }
}
