package io.kovn.policy.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyProtocol;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.ProtocolPort;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ClusterNetworkPolicyConverterTest {
    private static final LabelSelector RED =
            new LabelSelectorBuilder().addToMatchLabels("team", "red").build();
    private static final LabelSelector WEB =
            new LabelSelectorBuilder().addToMatchLabels("app", "web").build();

    private static AdminNetworkPolicy anp(
            String name,
            int priority,
            List<AdminNetworkPolicyIngressRule> ingress,
            List<AdminNetworkPolicyEgressRule> egress) {
        return AdminNetworkPolicy.of(
                name, new AdminNetworkPolicySpec(priority, AdminNetworkPolicySubject.namespaces(RED), ingress, egress));
    }

    private static AdminNetworkPolicyIngressRule in(
            String name, AdminNetworkPolicyRuleAction action, AdminNetworkPolicyPort... ports) {
        return new AdminNetworkPolicyIngressRule(
                name, action, List.of(AdminNetworkPolicyIngressPeer.pods(RED, WEB)), List.of(ports));
    }

    private static ClusterNetworkPolicy only(ClusterNetworkPolicyConverter.Conversion c) {
        assertThat(c.refusals()).isEmpty();
        return (ClusterNetworkPolicy) c.objects().stream()
                .filter(o -> o instanceof ClusterNetworkPolicy)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void anAdminNetworkPolicyBecomesAnAdminTierPolicyOfTheSameNamePriorityRulesAndPorts() {
        AdminNetworkPolicy anp = anp(
                "guard",
                7,
                List.of(
                        in("allow-web", AdminNetworkPolicyRuleAction.ALLOW, AdminNetworkPolicyPort.number("TCP", 80)),
                        in(
                                "deny-range",
                                AdminNetworkPolicyRuleAction.DENY,
                                AdminNetworkPolicyPort.range("UDP", 50, 60),
                                AdminNetworkPolicyPort.named("dns")),
                        in("pass", AdminNetworkPolicyRuleAction.PASS)),
                List.of(new AdminNetworkPolicyEgressRule(
                        "out",
                        AdminNetworkPolicyRuleAction.DENY,
                        List.of(
                                AdminNetworkPolicyEgressPeer.networks(List.of("10.0.0.0/8")),
                                AdminNetworkPolicyEgressPeer.nodes(new LabelSelector())),
                        List.of(AdminNetworkPolicyPort.number("SCTP", 9003)))));
        anp.getMetadata().setLabels(Map.of("owner", "sec"));
        anp.getMetadata()
                .setAnnotations(Map.of(
                        "k8s.ovn.org/acl-logging", "{\"deny\": \"alert\"}",
                        "kubectl.kubernetes.io/last-applied-configuration", "{}"));

        ClusterNetworkPolicy cnp = only(ClusterNetworkPolicyConverter.convert(List.of(anp)));

        assertThat(cnp.getApiVersion()).isEqualTo("policy.networking.k8s.io/v1alpha2");
        assertThat(cnp.getKind()).isEqualTo("ClusterNetworkPolicy");
        assertThat(cnp.getMetadata().getName()).isEqualTo("guard");
        assertThat(cnp.getMetadata().getLabels()).isEqualTo(Map.of("owner", "sec"));
        assertThat(cnp.getMetadata().getAnnotations())
                .isEqualTo(Map.of("k8s.ovn.org/acl-logging", "{\"deny\": \"alert\"}"));
        ClusterNetworkPolicyIngressPeer from = ClusterNetworkPolicyIngressPeer.pods(RED, WEB);
        assertThat(cnp.getSpec())
                .isEqualTo(new ClusterNetworkPolicySpec(
                        Tier.ADMIN,
                        7,
                        ClusterNetworkPolicySubject.namespaces(RED),
                        List.of(
                                new ClusterNetworkPolicyIngressRule(
                                        "allow-web",
                                        ClusterNetworkPolicyRuleAction.ACCEPT,
                                        List.of(from),
                                        List.of(ClusterNetworkPolicyProtocol.tcp(80))),
                                new ClusterNetworkPolicyIngressRule(
                                        "deny-range",
                                        ClusterNetworkPolicyRuleAction.DENY,
                                        List.of(from),
                                        List.of(
                                                ClusterNetworkPolicyProtocol.of("UDP", ProtocolPort.range(50, 60)),
                                                ClusterNetworkPolicyProtocol.namedPort("dns"))),
                                new ClusterNetworkPolicyIngressRule(
                                        "pass", ClusterNetworkPolicyRuleAction.PASS, List.of(from), List.of())),
                        List.of(new ClusterNetworkPolicyEgressRule(
                                "out",
                                ClusterNetworkPolicyRuleAction.DENY,
                                List.of(
                                        ClusterNetworkPolicyEgressPeer.networks(List.of("10.0.0.0/8")),
                                        ClusterNetworkPolicyEgressPeer.nodes(new LabelSelector())),
                                List.of(ClusterNetworkPolicyProtocol.sctp(9003))))));
    }

    @Test
    void theBaselineAdminNetworkPolicyBecomesABaselineTierPolicyAtTheLowestPrecedence() {
        BaselineAdminNetworkPolicy banp = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.pods(new LabelSelector(), WEB),
                        List.of(in("deny-all", AdminNetworkPolicyRuleAction.DENY)),
                        List.of()));

        ClusterNetworkPolicy cnp = only(ClusterNetworkPolicyConverter.convert(List.of(banp)));

        assertThat(cnp.getMetadata().getName()).isEqualTo("default");
        assertThat(cnp.getSpec().tier()).isEqualTo(Tier.BASELINE);
        assertThat(cnp.getSpec().priority()).isEqualTo(ClusterNetworkPolicyConverter.BASELINE_PRIORITY);
        assertThat(cnp.getSpec().subject()).isEqualTo(ClusterNetworkPolicySubject.pods(new LabelSelector(), WEB));
        assertThat(cnp.getSpec().ingress())
                .singleElement()
                .extracting(ClusterNetworkPolicyIngressRule::action)
                .isEqualTo(ClusterNetworkPolicyRuleAction.DENY);
    }

    @Test
    void otherObjectsPassUnchangedAndPoliciesAreReplacedInPlace() {
        Namespace ns = new NamespaceBuilder()
                .withNewMetadata()
                .withName("a")
                .endMetadata()
                .build();
        AdminNetworkPolicy anp = anp("x", 1, List.of(in("r", AdminNetworkPolicyRuleAction.DENY)), List.of());
        ClusterNetworkPolicy existing = ClusterNetworkPolicy.of(
                "already",
                new ClusterNetworkPolicySpec(
                        Tier.ADMIN, 2, ClusterNetworkPolicySubject.namespaces(RED), List.of(), List.of()));

        List<HasMetadata> out = ClusterNetworkPolicyConverter.convert(List.of(ns, anp, existing))
                .objects();

        assertThat(out).hasSize(3);
        assertThat(out.get(0)).isSameAs(ns);
        assertThat(out.get(1)).isInstanceOf(ClusterNetworkPolicy.class);
        assertThat(out.get(1).getMetadata().getName()).isEqualTo("x");
        assertThat(out.get(2)).isSameAs(existing);
    }

    @Test
    void aRuleWithMorePeersAndPortsThanV1alpha2AllowsBecomesConsecutiveRulesOfTheSameAction() {
        List<AdminNetworkPolicyIngressPeer> peers = IntStream.range(0, 30)
                .mapToObj(i -> AdminNetworkPolicyIngressPeer.namespaces(new LabelSelectorBuilder()
                        .addToMatchLabels("n", "v" + i)
                        .build()))
                .toList();
        List<AdminNetworkPolicyPort> ports = IntStream.range(1, 31)
                .mapToObj(p -> AdminNetworkPolicyPort.number("TCP", p))
                .toList();
        AdminNetworkPolicy anp = anp(
                "wide",
                3,
                List.of(
                        new AdminNetworkPolicyIngressRule("many", AdminNetworkPolicyRuleAction.PASS, peers, ports),
                        in("after", AdminNetworkPolicyRuleAction.DENY)),
                List.of());

        List<ClusterNetworkPolicyIngressRule> rules = only(ClusterNetworkPolicyConverter.convert(List.of(anp)))
                .getSpec()
                .ingress();

        assertThat(rules)
                .extracting(ClusterNetworkPolicyIngressRule::name)
                .containsExactly("many", "many-2", "many-3", "many-4", "after");
        assertThat(rules.subList(0, 4))
                .allSatisfy(r -> assertThat(r.action()).isEqualTo(ClusterNetworkPolicyRuleAction.PASS));
        assertThat(rules.subList(0, 4)).allSatisfy(r -> {
            assertThat(r.from()).hasSizeLessThanOrEqualTo(25);
            assertThat(r.protocols()).hasSizeLessThanOrEqualTo(25);
        });
        // every (peer, port) pair of the original rule is in exactly one of its shares
        long pairs = rules.subList(0, 4).stream()
                .mapToLong(r -> (long) r.from().size() * r.protocols().size())
                .sum();
        assertThat(pairs).isEqualTo(30 * 30);
    }

    @Test
    void whatV1alpha2CannotExpressExactlyIsRefusedNamingTheObjectRuleAndField() {
        AdminNetworkPolicy ranges = anp(
                "ranges",
                1,
                List.of(
                        in("equal", AdminNetworkPolicyRuleAction.ALLOW, AdminNetworkPolicyPort.range("TCP", 80, 80)),
                        in("icmp", AdminNetworkPolicyRuleAction.ALLOW, AdminNetworkPolicyPort.number("ICMP", 1))),
                List.of());
        AdminNetworkPolicy big = anp(
                "big",
                2,
                IntStream.range(0, 26)
                        .mapToObj(i -> in("r" + i, AdminNetworkPolicyRuleAction.DENY))
                        .toList(),
                List.of());
        BaselineAdminNetworkPolicy pass = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.namespaces(RED),
                        List.of(in("p", AdminNetworkPolicyRuleAction.PASS)),
                        List.of()));
        AdminNetworkPolicy named = anp("default", 3, List.of(), List.of());

        ClusterNetworkPolicyConverter.Conversion c =
                ClusterNetworkPolicyConverter.convert(List.of(ranges, big, pass, named));

        assertThat(c.converted()).isFalse();
        assertThat(c.objects()).isEmpty();
        assertThat(c.refusals())
                .containsExactlyInAnyOrder(
                        "adminnetworkpolicy/ranges: ingress rule 0 (equal): portRange 80-80 (start must be less than"
                                + " end)",
                        "adminnetworkpolicy/ranges: ingress rule 1 (icmp): protocol ICMP (v1alpha2 has tcp, udp and"
                                + " sctp)",
                        "adminnetworkpolicy/big: ingress: 26 rules where v1alpha2 allows 25 per direction (split the policy by"
                                + " hand, choosing the priorities)",
                        "baselineadminnetworkpolicy/default: ingress rule 0 (p): action Pass (a"
                                + " BaselineAdminNetworkPolicy allows only Allow and Deny)",
                        "adminnetworkpolicy/default: its ClusterNetworkPolicy would be named default as"
                                + " baselineadminnetworkpolicy/default's is; rename one of them");
    }

    @Test
    void sharedAdminPrioritiesAreNotedNotRefused() {
        ClusterNetworkPolicyConverter.Conversion c = ClusterNetworkPolicyConverter.convert(List.of(
                anp("a", 5, List.of(), List.of()),
                anp("b", 5, List.of(), List.of()),
                anp("c", 6, List.of(), List.of())));

        assertThat(c.converted()).isTrue();
        assertThat(c.notes())
                .singleElement()
                .asString()
                .startsWith("Admin tier priority 5 is shared by adminnetworkpolicy/a, adminnetworkpolicy/b");
    }

    @Test
    void anOrderKovnKeepsBetweenKindsButNotAmongClusterNetworkPoliciesIsRefused() {
        ClusterNetworkPolicy admin5 = ClusterNetworkPolicy.of(
                "admin5",
                new ClusterNetworkPolicySpec(
                        Tier.ADMIN, 5, ClusterNetworkPolicySubject.namespaces(RED), List.of(), List.of()));
        ClusterNetworkPolicy baseline1000 = ClusterNetworkPolicy.of(
                "last",
                new ClusterNetworkPolicySpec(
                        Tier.BASELINE, 1000, ClusterNetworkPolicySubject.namespaces(RED), List.of(), List.of()));
        BaselineAdminNetworkPolicy banp = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(AdminNetworkPolicySubject.namespaces(RED), List.of(), List.of()));

        ClusterNetworkPolicyConverter.Conversion c = ClusterNetworkPolicyConverter.convert(
                List.of(anp("a", 5, List.of(), List.of()), admin5, baseline1000, banp));

        assertThat(c.refusals())
                .containsExactlyInAnyOrder(
                        "adminnetworkpolicy/a: clusternetworkpolicy/admin5 already has Admin tier priority 5, after"
                                + " the AdminNetworkPolicies of that priority; as ClusterNetworkPolicies they would be"
                                + " unordered; give it a priority of its own",
                        "baselineadminnetworkpolicy/default: clusternetworkpolicy/last already has Baseline tier"
                                + " priority 1000, where the converted policy must be alone to stay last; give it a"
                                + " lower priority");
        assertThat(ClusterNetworkPolicyConverter.convert(List.of(anp("a", 4, List.of(), List.of()), admin5, banp))
                        .refusals())
                .isEmpty();
    }

    @Test
    void aNamedPortBesideAddressPeersSplitsIntoThePodPeersWithEveryPortAndTheAddressesWithTheNumberedOnes() {
        AdminNetworkPolicyEgressPeer pods = AdminNetworkPolicyEgressPeer.pods(RED, WEB);
        AdminNetworkPolicyEgressPeer nets = AdminNetworkPolicyEgressPeer.networks(List.of("10.0.0.0/8"));
        AdminNetworkPolicy anp = anp(
                "mixed",
                1,
                List.of(),
                List.of(
                        new AdminNetworkPolicyEgressRule(
                                "both",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(nets, pods),
                                List.of(AdminNetworkPolicyPort.named("web"), AdminNetworkPolicyPort.number("UDP", 53))),
                        new AdminNetworkPolicyEgressRule(
                                "only-named",
                                AdminNetworkPolicyRuleAction.PASS,
                                List.of(nets),
                                List.of(AdminNetworkPolicyPort.named("web")))));

        List<ClusterNetworkPolicyEgressRule> rules = only(ClusterNetworkPolicyConverter.convert(List.of(anp)))
                .getSpec()
                .egress();

        ClusterNetworkPolicyProtocol web = ClusterNetworkPolicyProtocol.namedPort("web");
        ClusterNetworkPolicyProtocol dns = ClusterNetworkPolicyProtocol.udp(53);
        assertThat(rules)
                .containsExactly(
                        new ClusterNetworkPolicyEgressRule(
                                "both",
                                ClusterNetworkPolicyRuleAction.DENY,
                                List.of(ClusterNetworkPolicyEgressPeer.pods(RED, WEB)),
                                List.of(web, dns)),
                        new ClusterNetworkPolicyEgressRule(
                                "both-2",
                                ClusterNetworkPolicyRuleAction.DENY,
                                List.of(ClusterNetworkPolicyEgressPeer.networks(List.of("10.0.0.0/8"))),
                                List.of(dns)));
    }

    /** Found by the fuzzer: an unnamed policy in a file became an unnamed ClusterNetworkPolicy, exit 0. */
    @Test
    void aPolicyWithoutANameIsRefused() {
        AdminNetworkPolicy anp = anp(null, 3, List.of(), List.of());
        BaselineAdminNetworkPolicy banp = BaselineAdminNetworkPolicy.of(
                "",
                new BaselineAdminNetworkPolicySpec(AdminNetworkPolicySubject.namespaces(RED), List.of(), List.of()));

        ClusterNetworkPolicyConverter.Conversion c = ClusterNetworkPolicyConverter.convert(List.of(anp, banp));

        assertThat(c.converted()).isFalse();
        assertThat(c.objects()).isEmpty();
        assertThat(c.refusals())
                .containsExactly(
                        "adminnetworkpolicy/null: no metadata.name", "baselineadminnetworkpolicy/: no metadata.name");
    }
}
