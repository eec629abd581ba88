package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Invariants of every translation, over random clusters and policies. */
class TranslationInvariantsTest {
    static final List<String> HOUSES = List.of("g", "r", "s", "h");
    static final Pattern PORT_GROUP_REF = Pattern.compile("@(a\\d+)");
    static final Pattern ADDRESS_SET_REF = Pattern.compile("\\$(a\\d+)");

    @Property(tries = 60)
    void rowsReferToEachOtherConsistently(@ForAll("snapshots") PolicySnapshot snapshot) {
        DesiredPolicyState state = PolicyTranslator.translate(snapshot);
        Set<String> aclIdsInGroups = new HashSet<>();
        state.portGroups().values().forEach(pg -> {
            assertThat(pg.acls()).allSatisfy(id -> assertThat(state.acls()).containsKey(id));
            assertThat(snapshot.localPorts()).containsAll(pg.ports());
            aclIdsInGroups.addAll(pg.acls());
            assertThat(pg.externalIds().get("k8s.ovn.org/id")).isNotBlank();
        });
        assertThat(aclIdsInGroups).isEqualTo(state.acls().keySet());
        for (DesiredAcl acl : state.acls().values()) {
            assertThat(acl.name().length()).isLessThanOrEqualTo(63);
            assertThat(acl.priority()).isBetween(0, 32767);
            assertThat(acl.tier()).isBetween(1, 3);
            assertThat(acl.externalIds()).containsEntry("k8s.ovn.org/id", acl.id());
            assertThat(state.portGroups().get(acl.portGroup()).acls()).contains(acl.id());
            Matcher pg = PORT_GROUP_REF.matcher(acl.match());
            while (pg.find()) {
                assertThat(state.portGroups()).containsKey(pg.group(1));
            }
            Matcher as = ADDRESS_SET_REF.matcher(acl.match());
            while (as.find()) {
                assertThat(state.addressSets()).containsKey(as.group(1));
            }
            assertThat(acl.match()).doesNotContain("()").doesNotContain("&&  ").doesNotEndWith("&& ");
            assertThat(balanced(acl.match())).as(acl.match()).isTrue();
        }
        state.addressSets().values().forEach(set -> {
            IpFamily family = "v6".equals(set.externalIds().get("ip-family")) ? IpFamily.IPV6 : IpFamily.IPV4;
            assertThat(set.addresses())
                    .allSatisfy(a -> assertThat(IpFamily.of(a)).isEqualTo(family));
        });
        assertThat(PolicyTranslator.translate(snapshot)).isEqualTo(state);
    }

    static boolean balanced(String match) {
        int depth = 0;
        for (char c : match.toCharArray()) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }

    @Provide
    Arbitrary<PolicySnapshot> snapshots() {
        Arbitrary<List<AdminNetworkPolicy>> anps = anp().list().ofMaxSize(5).map(list -> {
            List<AdminNetworkPolicy> named = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                AdminNetworkPolicy a = list.get(i);
                named.add(AdminNetworkPolicy.of("anp-" + i, a.getSpec()));
            }
            return named;
        });
        Arbitrary<List<NetworkPolicy>> nps = networkPolicy().list().ofMaxSize(4).map(list -> {
            List<NetworkPolicy> named = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                NetworkPolicy p = list.get(i);
                p.getMetadata().setName("np-" + i);
                named.add(p);
            }
            return named;
        });
        Arbitrary<Set<IpFamily>> families =
                Arbitraries.of(Set.of(IpFamily.IPV4), Set.of(IpFamily.IPV6), Set.of(IpFamily.IPV4, IpFamily.IPV6));
        return Combinators.combine(anps, nps, families).as((a, n, f) -> {
            List<Pod> pods = new ArrayList<>();
            Set<String> local = new HashSet<>();
            int i = 0;
            for (String house : HOUSES) {
                for (int p = 0; p < 2; p++, i++) {
                    pods.add(Fixtures.pod(
                            house,
                            house + p,
                            p == 0 ? "a" : "b",
                            List.of("10.244.0." + (i + 2), "fd00::" + (i + 2)),
                            Map.of("app", "x" + p),
                            "web/TCP/80",
                            "dns/UDP/53"));
                    if (p == 0) {
                        local.add(house + "_" + house + p);
                    }
                }
            }
            return PolicySnapshot.builder("a")
                    .ipFamilies(f)
                    .namespaces(HOUSES.stream()
                            .map(h -> Fixtures.namespace(h, "house", h))
                            .toList())
                    .pods(pods)
                    .nodes(List.of(Fixtures.node("a", "172.18.0.2", "os", "linux"), Fixtures.node("b", "172.18.0.3")))
                    .adminNetworkPolicies(a)
                    .networkPolicies(n)
                    .localPorts(local)
                    .build();
        });
    }

    static Arbitrary<LabelSelector> selector() {
        return Arbitraries.oneOf(
                Arbitraries.of(HOUSES).map(h -> Fixtures.labels("house", h)), Arbitraries.just(Fixtures.all()));
    }

    static Arbitrary<AdminNetworkPolicyPort> port() {
        return Arbitraries.oneOf(
                Arbitraries.of("TCP", "UDP", "SCTP", "ICMP")
                        .flatMap(p ->
                                Arbitraries.integers().between(1, 65535).map(n -> AdminNetworkPolicyPort.number(p, n))),
                Arbitraries.integers().between(1, 1000).map(s -> AdminNetworkPolicyPort.range("TCP", s, s + 10)),
                Arbitraries.of("web", "dns", "nope").map(AdminNetworkPolicyPort::named));
    }

    static Arbitrary<AdminNetworkPolicy> anp() {
        Arbitrary<AdminNetworkPolicyRuleAction> action = Arbitraries.of(AdminNetworkPolicyRuleAction.class);
        Arbitrary<AdminNetworkPolicyIngressRule> ingress = Combinators.combine(
                        action, selector(), port().list().ofMaxSize(3))
                .as((a, s, p) -> new AdminNetworkPolicyIngressRule(
                        null, a, List.of(AdminNetworkPolicyIngressPeer.namespaces(s)), p));
        Arbitrary<AdminNetworkPolicyEgressPeer> egressPeer = Arbitraries.oneOf(
                selector().map(AdminNetworkPolicyEgressPeer::namespaces),
                Arbitraries.just(AdminNetworkPolicyEgressPeer.nodes(Fixtures.labels("os", "linux"))),
                Arbitraries.of("0.0.0.0/0", "::/0", "10.244.0.0/24", "fd00::/64")
                        .list()
                        .ofMinSize(1)
                        .ofMaxSize(2)
                        .uniqueElements()
                        .map(AdminNetworkPolicyEgressPeer::networks));
        Arbitrary<AdminNetworkPolicyEgressRule> egress = Combinators.combine(
                        action,
                        egressPeer.list().ofMinSize(1).ofMaxSize(2),
                        port().list().ofMaxSize(3))
                .as((a, peers, p) -> new AdminNetworkPolicyEgressRule(null, a, peers, p));
        return Combinators.combine(
                        Arbitraries.integers().between(0, 1000),
                        selector(),
                        ingress.list().ofMaxSize(4),
                        egress.list().ofMaxSize(4))
                .as((priority, subject, in, out) -> AdminNetworkPolicy.of(
                        "x",
                        new AdminNetworkPolicySpec(priority, AdminNetworkPolicySubject.namespaces(subject), in, out)));
    }

    static Arbitrary<NetworkPolicy> networkPolicy() {
        return Combinators.combine(
                        Arbitraries.of(HOUSES), Arbitraries.of("web", "dns", "80", ""), Arbitraries.of(true, false))
                .as((ns, port, egress) -> {
                    var b = new NetworkPolicyBuilder()
                            .withNewMetadata()
                            .withNamespace(ns)
                            .withName("x")
                            .endMetadata()
                            .withNewSpec()
                            .withNewPodSelector()
                            .addToMatchLabels("app", "x0")
                            .endPodSelector();
                    var rule = new NetworkPolicyIngressRuleBuilder()
                            .addNewFrom()
                            .withNamespaceSelector(Fixtures.labels("house", "r"))
                            .endFrom()
                            .addNewFrom()
                            .withNewIpBlock()
                            .withCidr("10.0.0.0/8")
                            .withExcept("10.1.0.0/16")
                            .endIpBlock()
                            .endFrom();
                    if (!port.isEmpty()) {
                        rule.addNewPort()
                                .withProtocol("TCP")
                                .withPort(
                                        port.matches("\\d+")
                                                ? new IntOrString(Integer.parseInt(port))
                                                : new IntOrString(port))
                                .endPort();
                    }
                    var spec = b.addToIngress(rule.build());
                    if (egress) {
                        spec = spec.addNewEgress()
                                .addNewTo()
                                .withNewPodSelector()
                                .endPodSelector()
                                .endTo()
                                .endEgress();
                    }
                    return spec.endSpec().build();
                });
    }
}
