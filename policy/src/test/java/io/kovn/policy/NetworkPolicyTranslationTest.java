package io.kovn.policy;

import static io.kovn.policy.Fixtures.map;
import static io.kovn.policy.Fixtures.namespace;
import static io.kovn.policy.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicySnapshot;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** NetworkPolicy cases after Kubernetes' NetworkPolicy e2e suite, checked at the row level. */
class NetworkPolicyTranslationTest {
    static final String ZONE = "node-a";

    static PolicySnapshot.Builder cluster() {
        return PolicySnapshot.builder(ZONE)
                .namespaces(List.of(
                        namespace("x", "ns", "x"),
                        namespace("y", "ns", "y", "team", "blue"),
                        namespace("z", "ns", "z")))
                .pods(List.of(
                        pod("x", "a", ZONE, List.of("10.244.0.2"), map("pod", "a"), "serve-80/TCP/80"),
                        pod("x", "b", ZONE, List.of("10.244.0.3"), map("pod", "b"), "serve-81/UDP/81"),
                        pod("x", "c", "node-b", List.of("10.244.1.4"), map("pod", "c")),
                        pod("y", "a", ZONE, List.of("10.244.0.5"), map("pod", "a"), "serve-80/TCP/80"),
                        pod("y", "b", "node-b", List.of("10.244.1.6"), map("pod", "b")),
                        pod("z", "a", "node-b", List.of("10.244.1.7"), map("pod", "a"), "serve-80/TCP/8080"),
                        Fixtures.hostNetworkPod("z", "host", "node-b", "172.18.0.3", "pod", "a")))
                .localPorts(Set.of("x_a", "x_b", "y_a"));
    }

    static NetworkPolicyBuilder policy(String namespace, String name, LabelSelector podSelector) {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withPodSelector(podSelector)
                .endSpec();
    }

    static DesiredPolicyState translate(NetworkPolicy... policies) {
        return PolicyTranslator.translate(
                cluster().networkPolicies(List.of(policies)).build());
    }

    static LabelSelector sel(String... kv) {
        return new LabelSelectorBuilder().withMatchLabels(map(kv)).build();
    }

    static NetworkPolicyPeer pods(LabelSelector pods) {
        return new NetworkPolicyPeerBuilder().withPodSelector(pods).build();
    }

    static NetworkPolicyPeer namespaces(LabelSelector namespaces) {
        return new NetworkPolicyPeerBuilder().withNamespaceSelector(namespaces).build();
    }

    static NetworkPolicyPort port(String protocol, Object port, Integer endPort) {
        var b = new NetworkPolicyPortBuilder().withProtocol(protocol).withEndPort(endPort);
        if (port != null) {
            b.withPort(port instanceof Integer i ? new IntOrString(i) : new IntOrString((String) port));
        }
        return b.build();
    }

    static String pg(String ns, String name) {
        return ObjectId.of(OwnerType.NETWORK_POLICY, ns + ":" + name).hashedName();
    }

    static String denyPg(String ns, String direction) {
        return ObjectId.of(OwnerType.NETPOL_NAMESPACE, ns)
                .with(IdKey.DIRECTION, direction)
                .hashedName();
    }

    static String set(String ns, String name, String direction, int index) {
        return ObjectId.of(OwnerType.NETWORK_POLICY, ns + ":" + name)
                .with(IdKey.DIRECTION, direction)
                .with(IdKey.GRESS_INDEX, index)
                .with(IdKey.IP_FAMILY, "v4")
                .hashedName();
    }

    static List<String> policyMatches(DesiredPolicyState state, String ns, String name) {
        return state
                .findAcls(Map.of("k8s.ovn.org/owner-type", "NetworkPolicy", "k8s.ovn.org/name", ns + ":" + name))
                .stream()
                .map(DesiredAcl::match)
                .toList();
    }

    @Test
    void denyAllIngressIsolatesTheSelectedLocalPodsWithArpAllowed() {
        var state = translate(policy("x", "deny-all", new LabelSelector())
                .editSpec()
                .withPolicyTypes("Ingress")
                .endSpec()
                .build());
        String deny = denyPg("x", "Ingress");
        assertThat(state.portGroups().get(deny).ports()).containsExactly("x_a", "x_b");
        assertThat(state.portGroups().get(pg("x", "deny-all")).acls()).isEmpty();
        assertThat(state.acls().values())
                .extracting(
                        DesiredAcl::match, DesiredAcl::priority, DesiredAcl::action, DesiredAcl::tier, DesiredAcl::name)
                .containsExactlyInAnyOrder(
                        Tuple.tuple("outport == @" + deny, 1000, AclAction.DROP, 2, "NP:x:Ingress"),
                        Tuple.tuple(
                                "outport == @" + deny + " && (arp || nd)", 1001, AclAction.ALLOW, 2, "NP:x:Ingress"));
        assertThat(state.findPortGroups(Map.of("k8s.ovn.org/owner-type", "NetpolNamespace")))
                .hasSize(1);
    }

    @Test
    void podSelectorPeersSelectPodsOfThePolicyNamespaceOnly() {
        var state = translate(policy("x", "allow-b", sel("pod", "a"))
                .editSpec()
                .addNewIngress()
                .withFrom(pods(sel("pod", "b")))
                .endIngress()
                .endSpec()
                .build());
        assertThat(state.addressSets().get(set("x", "allow-b", "Ingress", 0)).addresses())
                .containsExactly("10.244.0.3");
        assertThat(policyMatches(state, "x", "allow-b"))
                .containsExactly("outport == @" + pg("x", "allow-b") + " && ((ip4.src == $"
                        + set("x", "allow-b", "Ingress", 0) + "))");
        DesiredAcl acl = state.findAcls(Map.of("k8s.ovn.org/name", "x:allow-b")).getFirst();
        assertThat(acl.name()).isEqualTo("NP:x:allow-b:Ingress:0");
        assertThat(acl.priority()).isEqualTo(1001);
        assertThat(acl.action()).isEqualTo(AclAction.ALLOW_RELATED);
        assertThat(acl.externalIds())
                .containsEntry("ip-block-index", "-1")
                .containsEntry("port-policy-protocol", "None");
        assertThat(state.portGroups().get(pg("x", "allow-b")).ports()).containsExactly("x_a");
        assertThat(state.portGroups().get(denyPg("x", "Ingress")).ports()).containsExactly("x_a");
    }

    @Test
    void namespaceSelectorPeersSelectEveryPodOfThoseNamespacesButHostNetwork() {
        var state = translate(policy("x", "from-ns", new LabelSelector())
                .editSpec()
                .addNewIngress()
                .withFrom(namespaces(new LabelSelectorBuilder()
                        .addNewMatchExpression()
                        .withKey("ns")
                        .withOperator("In")
                        .withValues("y", "z")
                        .endMatchExpression()
                        .build()))
                .endIngress()
                .endSpec()
                .build());
        assertThat(state.addressSets().get(set("x", "from-ns", "Ingress", 0)).addresses())
                .containsExactly("10.244.0.5", "10.244.1.6", "10.244.1.7");
    }

    @Test
    void namespaceAndPodSelectorTogetherSelectTheIntersection() {
        NetworkPolicyPeer both = new NetworkPolicyPeerBuilder()
                .withNamespaceSelector(sel("team", "blue"))
                .withPodSelector(sel("pod", "b"))
                .build();
        var state = translate(policy("x", "both", new LabelSelector())
                .editSpec()
                .addNewIngress()
                .withFrom(both)
                .endIngress()
                .endSpec()
                .build());
        assertThat(state.addressSets().get(set("x", "both", "Ingress", 0)).addresses())
                .containsExactly("10.244.1.6");
    }

    @Test
    void matchExpressionOperatorsSelectLikeKubernetes() {
        LabelSelector notIn = new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey("ns")
                .withOperator("NotIn")
                .withValues("x")
                .endMatchExpression()
                .addNewMatchExpression()
                .withKey("team")
                .withOperator("DoesNotExist")
                .endMatchExpression()
                .build();
        var state = translate(policy("x", "expr", new LabelSelector())
                .editSpec()
                .addNewIngress()
                .withFrom(namespaces(notIn))
                .endIngress()
                .endSpec()
                .build());
        assertThat(state.addressSets().get(set("x", "expr", "Ingress", 0)).addresses())
                .containsExactly("10.244.1.7");
    }

    @Test
    void ipBlockWithExceptIsItsOwnAcl() {
        NetworkPolicyPeer block = new NetworkPolicyPeerBuilder()
                .withNewIpBlock()
                .withCidr("10.244.0.0/16")
                .withExcept("10.244.1.0/24", "10.244.0.3/32")
                .endIpBlock()
                .build();
        var state = translate(policy("x", "cidr", sel("pod", "a"))
                .editSpec()
                .addNewIngress()
                .withFrom(block, pods(sel("pod", "c")))
                .endIngress()
                .endSpec()
                .build());
        assertThat(policyMatches(state, "x", "cidr"))
                .containsExactlyInAnyOrder(
                        "outport == @" + pg("x", "cidr") + " && ((ip4.src == $" + set("x", "cidr", "Ingress", 0) + "))",
                        "outport == @" + pg("x", "cidr")
                                + " && (ip4.src == 10.244.0.0/16 && ip4.src != {10.244.0.3/32, 10.244.1.0/24})");
    }

    @Test
    void portsWithEndPortAndProtocolOnlyPorts() {
        var state = translate(policy("x", "ports", sel("pod", "a"))
                .editSpec()
                .addNewIngress()
                .withPorts(port("TCP", 80, 85), port("UDP", null, null), port("SCTP", 9003, null))
                .endIngress()
                .endSpec()
                .build());
        String pgm = "outport == @" + pg("x", "ports");
        assertThat(policyMatches(state, "x", "ports"))
                .containsExactlyInAnyOrder(
                        pgm + " && tcp && 80<=tcp.dst<=85", pgm + " && udp", pgm + " && sctp && sctp.dst==9003");
    }

    @Test
    void ingressNamedPortsResolveOnTheSelectedPods() {
        var state = translate(policy("x", "named", new LabelSelector())
                .editSpec()
                .addNewIngress()
                .withPorts(port("TCP", "serve-80", null))
                .endIngress()
                .endSpec()
                .build());
        assertThat(policyMatches(state, "x", "named"))
                .containsExactly(
                        "outport == @" + pg("x", "named") + " && tcp && ((ip4.dst == 10.244.0.2 && tcp.dst == 80))");
    }

    @Test
    void egressNamedPortsResolveOnThePeerPodsAndEgressUsesFromLport() {
        var state = translate(policy("x", "egress-named", sel("pod", "a"))
                .editSpec()
                .withPolicyTypes("Egress")
                .addNewEgress()
                .withTo(namespaces(new LabelSelector()))
                .withPorts(port("TCP", "serve-80", null))
                .endEgress()
                .endSpec()
                .build());
        DesiredAcl acl =
                state.findAcls(Map.of("k8s.ovn.org/name", "x:egress-named")).getFirst();
        assertThat(acl.match())
                .isEqualTo(
                        "inport == @" + pg("x", "egress-named") + " && ((ip4.dst == $"
                                + set("x", "egress-named", "Egress", 0)
                                + ")) && tcp && ((ip4.dst == 10.244.0.2 && tcp.dst == 80) || (ip4.dst == 10.244.0.5 && tcp.dst == 80) || (ip4.dst == 10.244.1.7 && tcp.dst == 8080))");
        assertThat(acl.direction().ovsdbValue()).isEqualTo("from-lport");
        assertThat(acl.options()).containsEntry("apply-after-lb", "true");
        assertThat(state.portGroups()).containsKey(denyPg("x", "Egress")).doesNotContainKey(denyPg("x", "Ingress"));
    }

    @Test
    void anEmptyRuleAllowsEverything() {
        var state = translate(policy("x", "allow-all", new LabelSelector())
                .editSpec()
                .addNewIngress()
                .endIngress()
                .endSpec()
                .build());
        assertThat(policyMatches(state, "x", "allow-all")).containsExactly("outport == @" + pg("x", "allow-all"));
        assertThat(state.addressSets()).isEmpty();
    }

    @Test
    void policyTypesDefaultToIngressPlusEgressWhenEgressRulesExist() {
        var state = translate(policy("x", "both-ways", sel("pod", "b"))
                .editSpec()
                .addNewEgress()
                .withTo(pods(sel("pod", "a")))
                .endEgress()
                .endSpec()
                .build());
        assertThat(state.portGroups().get(denyPg("x", "Ingress")).ports()).containsExactly("x_b");
        assertThat(state.portGroups().get(denyPg("x", "Egress")).ports()).containsExactly("x_b");
    }

    @Test
    void multiplePoliciesSelectingOnePodEachAllowAndShareTheDefaultDeny() {
        var state = translate(
                policy("x", "p1", sel("pod", "a"))
                        .editSpec()
                        .addNewIngress()
                        .withFrom(pods(sel("pod", "b")))
                        .endIngress()
                        .endSpec()
                        .build(),
                policy("x", "p2", new LabelSelector())
                        .editSpec()
                        .addNewIngress()
                        .withPorts(port("TCP", 80, null))
                        .endIngress()
                        .endSpec()
                        .build());
        assertThat(state.portGroups().get(pg("x", "p1")).ports()).containsExactly("x_a");
        assertThat(state.portGroups().get(pg("x", "p2")).ports()).containsExactly("x_a", "x_b");
        assertThat(state.portGroups().get(denyPg("x", "Ingress")).ports()).containsExactly("x_a", "x_b");
        assertThat(state.findAcls(Map.of("k8s.ovn.org/owner-type", "NetpolNamespace")))
                .hasSize(2);
    }

    @Test
    void namespaceLoggingAnnotationLogsDenyAndAllow() {
        var snapshot = cluster()
                .networkPolicies(List.of(policy("w", "p", new LabelSelector())
                        .editSpec()
                        .addNewIngress()
                        .endIngress()
                        .endSpec()
                        .build()))
                .namespaces(List.of(Fixtures.namespaceWithAnnotation(
                        "w", "k8s.ovn.org/acl-logging", "{\"deny\":\"alert\",\"allow\":\"info\"}")))
                .build();
        var state = PolicyTranslator.translate(snapshot);
        assertThat(state.findAcls(Map.of("type", "defaultDeny")))
                .singleElement()
                .satisfies(a -> assertThat(a.severity()).contains("alert"));
        assertThat(state.findAcls(Map.of("type", "arpAllow")))
                .singleElement()
                .satisfies(a -> assertThat(a.log()).isFalse());
        assertThat(state.findAcls(Map.of("k8s.ovn.org/name", "w:p")))
                .singleElement()
                .satisfies(a -> assertThat(a.severity()).contains("info"));
    }

    @Test
    void invalidProtocolsAreReported() {
        var state = translate(policy("x", "icmp", new LabelSelector())
                .editSpec()
                .addNewIngress()
                .withPorts(port("ICMP", 1, null))
                .endIngress()
                .endSpec()
                .build());
        assertThat(policyMatches(state, "x", "icmp")).isEmpty();
        assertThat(state.report(PolicyRef.networkPolicy("x", "icmp"))
                        .orElseThrow()
                        .warnings())
                .extracting(w -> w.reason())
                .containsExactly("InvalidProtocol");
    }
}
