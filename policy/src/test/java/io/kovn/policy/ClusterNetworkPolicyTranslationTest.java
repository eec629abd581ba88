package io.kovn.policy;

import static io.kovn.policy.AdminPolicyConstructsTest.cluster;
import static io.kovn.policy.Fixtures.all;
import static io.kovn.policy.Fixtures.labels;
import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyProtocol;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.ProtocolPort;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.admin.AnpPriorities;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyReport;
import io.kovn.policy.model.PolicyWarning;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ClusterNetworkPolicies of both tiers translated onto the ANP/BANP tiers, and kovn's order across the kinds. */
class ClusterNetworkPolicyTranslationTest {
    static final ClusterNetworkPolicySubject SUBJECT_G = ClusterNetworkPolicySubject.namespaces(labels("house", "g"));

    static ClusterNetworkPolicy cnp(String name, Tier tier, int priority, ClusterNetworkPolicyEgressRule... rules) {
        return ClusterNetworkPolicy.of(
                name, new ClusterNetworkPolicySpec(tier, priority, SUBJECT_G, null, Arrays.asList(rules)));
    }

    static ClusterNetworkPolicyEgressRule toAll(
            ClusterNetworkPolicyRuleAction action, ClusterNetworkPolicyProtocol... protocols) {
        return new ClusterNetworkPolicyEgressRule(
                null, action, List.of(ClusterNetworkPolicyEgressPeer.namespaces(all())), List.of(protocols));
    }

    static AdminNetworkPolicy anp(String name, int priority) {
        return AdminNetworkPolicy.of(
                name,
                new AdminNetworkPolicySpec(
                        priority,
                        AdminNetworkPolicySubject.namespaces(labels("house", "g")),
                        null,
                        List.of(new AdminNetworkPolicyEgressRule(
                                null,
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())),
                                null))));
    }

    static BaselineAdminNetworkPolicy banp() {
        return BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.namespaces(labels("house", "g")),
                        null,
                        List.of(new AdminNetworkPolicyEgressRule(
                                null,
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())),
                                null))));
    }

    static DesiredPolicyState translate(List<AdminNetworkPolicy> anps, ClusterNetworkPolicy... cnps) {
        return PolicyTranslator.translate(cluster()
                .adminNetworkPolicies(anps)
                .clusterNetworkPolicies(List.of(cnps))
                .build());
    }

    static List<DesiredAcl> acls(DesiredPolicyState state, String owner, String name) {
        return state.findAcls(Map.of("k8s.ovn.org/owner-type", owner, "k8s.ovn.org/name", name));
    }

    @Test
    void anAdminTierPolicyIsTierOneWithTheReferencesFormulaAndCnpNamesAndOwnerType() {
        var state = translate(
                List.of(),
                cnp(
                        "sensitive",
                        Tier.ADMIN,
                        5,
                        toAll(ClusterNetworkPolicyRuleAction.ACCEPT, ClusterNetworkPolicyProtocol.tcp(80)),
                        toAll(ClusterNetworkPolicyRuleAction.PASS),
                        toAll(ClusterNetworkPolicyRuleAction.DENY)));
        List<DesiredAcl> acls = acls(state, "ClusterNetworkPolicy", "sensitive");
        assertThat(acls)
                .extracting(DesiredAcl::tier, DesiredAcl::priority, DesiredAcl::action, DesiredAcl::name)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(
                                1, 29500, AclAction.ALLOW_RELATED, "CNP:sensitive:Egress:0"),
                        org.assertj.core.groups.Tuple.tuple(1, 29499, AclAction.PASS, "CNP:sensitive:Egress:1"),
                        org.assertj.core.groups.Tuple.tuple(1, 29498, AclAction.DROP, "CNP:sensitive:Egress:2"));
        assertThat(acls.getFirst().externalIds())
                .containsEntry("k8s.ovn.org/owner-type", OwnerType.CLUSTER_NETWORK_POLICY.wireName());
        assertThat(acls.stream()
                        .filter(a -> a.priority() == 29500)
                        .findFirst()
                        .orElseThrow()
                        .match())
                .contains("tcp.dst==80");
        assertThat(state.report(PolicyRef.cnp("sensitive")))
                .hasValueSatisfying(r -> assertThat(r.failure()).isEmpty());
    }

    @Test
    void atEqualPriorityTheAnpComesBeforeTheCnpInTierOne() {
        var state = translate(
                List.of(anp("legacy", 5)), cnp("modern", Tier.ADMIN, 5, toAll(ClusterNetworkPolicyRuleAction.ACCEPT)));
        int anp = acls(state, "AdminNetworkPolicy", "legacy").getFirst().priority();
        int cnp = acls(state, "ClusterNetworkPolicy", "modern").getFirst().priority();
        assertThat(anp).as("the ANP keeps the reference's formula").isEqualTo(29500);
        assertThat(cnp).isEqualTo(29499);
    }

    @Test
    void atEqualPriorityAbove99TheAnpBandComesFirstAndBothStayInOrder() {
        var state = translate(
                List.of(anp("legacy", 400), anp("later", 401)),
                cnp("modern", Tier.ADMIN, 400, toAll(ClusterNetworkPolicyRuleAction.ACCEPT)),
                cnp("before", Tier.ADMIN, 399, toAll(ClusterNetworkPolicyRuleAction.ACCEPT)));
        int before = acls(state, "ClusterNetworkPolicy", "before").getFirst().priority();
        int legacy = acls(state, "AdminNetworkPolicy", "legacy").getFirst().priority();
        int modern = acls(state, "ClusterNetworkPolicy", "modern").getFirst().priority();
        int later = acls(state, "AdminNetworkPolicy", "later").getFirst().priority();
        assertThat(List.of(before, legacy, modern, later)).isSortedAccordingTo((a, b) -> Integer.compare(b, a));
        assertThat(later).isPositive();
    }

    @Test
    void baselineTierPoliciesComeBeforeTheBanpInTierThreeByPriority() {
        var state = PolicyTranslator.translate(cluster()
                .baselineAdminNetworkPolicies(List.of(banp()))
                .clusterNetworkPolicies(List.of(
                        cnp("late", Tier.BASELINE, 1000, toAll(ClusterNetworkPolicyRuleAction.DENY)),
                        cnp(
                                "early",
                                Tier.BASELINE,
                                0,
                                toAll(ClusterNetworkPolicyRuleAction.ACCEPT, ClusterNetworkPolicyProtocol.udp(53)),
                                toAll(ClusterNetworkPolicyRuleAction.PASS))))
                .build());
        assertThat(acls(state, "ClusterNetworkPolicy", "early"))
                .extracting(DesiredAcl::tier, DesiredAcl::priority)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(3, AnpPriorities.baselineCnpPriority(0, 0)),
                        org.assertj.core.groups.Tuple.tuple(3, AnpPriorities.baselineCnpPriority(0, 1)));
        int late = acls(state, "ClusterNetworkPolicy", "late").getFirst().priority();
        int banp =
                acls(state, "BaselineAdminNetworkPolicy", "default").getFirst().priority();
        assertThat(banp).isEqualTo(AnpPriorities.BANP_TOP);
        assertThat(late).isGreaterThan(banp).isLessThan(AnpPriorities.baselineCnpPriority(0, 1));
        assertThat(AnpPriorities.baselineCnpPriority(0, 0)).isLessThanOrEqualTo(32767);
        assertThat(acls(state, "ClusterNetworkPolicy", "late").getFirst().tier())
                .isEqualTo(3);
    }

    @Test
    void equalTierAndPriorityIsWarnedAboutButApplied() {
        var state = translate(
                List.of(),
                cnp("a", Tier.BASELINE, 7, toAll(ClusterNetworkPolicyRuleAction.DENY)),
                cnp("b", Tier.BASELINE, 7, toAll(ClusterNetworkPolicyRuleAction.ACCEPT)),
                cnp("c", Tier.ADMIN, 7, toAll(ClusterNetworkPolicyRuleAction.ACCEPT)));
        assertThat(state.report(PolicyRef.cnp("a")).orElseThrow().warnings())
                .extracting(PolicyWarning::reason)
                .containsExactly(PolicyWarning.CNP_DUPLICATE_PRIORITY);
        assertThat(state.report(PolicyRef.cnp("c")).orElseThrow().warnings()).isEmpty();
        assertThat(acls(state, "ClusterNetworkPolicy", "a").getFirst().priority())
                .isEqualTo(acls(state, "ClusterNetworkPolicy", "b").getFirst().priority());
    }

    @Test
    void domainNamesAreRefusedWithAWarningAndMatchNothing() {
        var rule = new ClusterNetworkPolicyEgressRule(
                "allow-k8s",
                ClusterNetworkPolicyRuleAction.ACCEPT,
                List.of(ClusterNetworkPolicyEgressPeer.domainNames(List.of("*.kubernetes.io"))),
                null);
        var state = translate(List.of(), cnp("dns", Tier.ADMIN, 3, rule));
        PolicyReport report = state.report(PolicyRef.cnp("dns")).orElseThrow();
        assertThat(report.warnings()).singleElement().satisfies(w -> {
            assertThat(w.reason()).isEqualTo(PolicyWarning.DOMAIN_NAMES_NOT_SUPPORTED);
            assertThat(w.message()).contains("*.kubernetes.io", "not enforced", "matches nothing");
        });
        // the Accept rule's address sets hold nothing: no traffic is accepted through it
        assertThat(state.addressSets().values())
                .filteredOn(s -> "ClusterNetworkPolicy".equals(s.externalIds().get("k8s.ovn.org/owner-type")))
                .allSatisfy(s -> assertThat(s.addresses()).isEmpty());
    }

    @Test
    void rangesAndNamedPortsAndProtocolsReadLikeV1alpha1Ports() {
        var state = translate(
                List.of(),
                cnp(
                        "ports",
                        Tier.ADMIN,
                        1,
                        toAll(
                                ClusterNetworkPolicyRuleAction.DENY,
                                ClusterNetworkPolicyProtocol.of("SCTP", ProtocolPort.range(9000, 9010)),
                                ClusterNetworkPolicyProtocol.namedPort("web"))));
        assertThat(acls(state, "ClusterNetworkPolicy", "ports"))
                .extracting(DesiredAcl::match)
                .anySatisfy(m -> assertThat(m).contains("sctp", "9000", "9010"))
                .anySatisfy(m -> assertThat(m).contains("tcp"));
    }

    @Test
    void aCnpWithoutTierIsNotProgrammedAndSaysWhyWhileOthersWork() {
        var broken = ClusterNetworkPolicy.of(
                "broken",
                new ClusterNetworkPolicySpec(
                        null, 1, SUBJECT_G, null, List.of(toAll(ClusterNetworkPolicyRuleAction.DENY))));
        var state =
                translate(List.of(), broken, cnp("fine", Tier.ADMIN, 1, toAll(ClusterNetworkPolicyRuleAction.DENY)));
        assertThat(state.report(PolicyRef.cnp("broken")).orElseThrow().failure())
                .hasValueSatisfying(e -> assertThat(e).contains("spec.tier"));
        assertThat(acls(state, "ClusterNetworkPolicy", "broken")).isEmpty();
        assertThat(acls(state, "ClusterNetworkPolicy", "fine")).hasSize(1);
    }

    @Test
    void aRestartRecoversCnpBandsAndChangesNothing() {
        List<AdminNetworkPolicy> anps = List.of(anp("a", 300));
        ClusterNetworkPolicy[] cnps = {
            cnp("x", Tier.ADMIN, 300, toAll(ClusterNetworkPolicyRuleAction.ACCEPT)),
            cnp("y", Tier.ADMIN, 700, toAll(ClusterNetworkPolicyRuleAction.DENY))
        };
        DesiredPolicyState first = translate(anps, cnps);
        var observed = first.acls().values().stream()
                .map(a -> new AnpPriorities.ObservedAcl(a.externalIds(), a.priority()))
                .toList();
        var recovered = AnpPriorities.recoverTier1(Map.of("a", 300), Map.of("x", 300, "y", 700), observed);
        assertThat(recovered).isEqualTo(first.priorities());
    }
}
