package io.kovn.policy.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
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
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import io.kovn.policy.Fixtures;
import io.kovn.policy.model.PolicySnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The evaluator's reading of ClusterNetworkPolicies: tiers, kovn's order, Pass in the Baseline tier. */
class ClusterNetworkPolicyEvaluationTest {
    private static final Flow A_TO_B_80 =
            Flow.of(Endpoint.pod("a", "a0"), Endpoint.pod("b", "b0"), ProtocolPort.parse("tcp/80"));

    private static ClusterNetworkPolicy egress(
            String name, Tier tier, int priority, ClusterNetworkPolicyRuleAction action, int port) {
        return ClusterNetworkPolicy.of(
                name,
                new ClusterNetworkPolicySpec(
                        tier,
                        priority,
                        ClusterNetworkPolicySubject.namespaces(Fixtures.labels("kubernetes.io/metadata.name", "a")),
                        null,
                        List.of(new ClusterNetworkPolicyEgressRule(
                                "r",
                                action,
                                List.of(ClusterNetworkPolicyEgressPeer.namespaces(Fixtures.all())),
                                port == 0 ? null : List.of(ClusterNetworkPolicyProtocol.tcp(port))))));
    }

    private static BaselineAdminNetworkPolicy banpDenyAll() {
        return BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.namespaces(Fixtures.all()),
                        null,
                        List.of(new AdminNetworkPolicyEgressRule(
                                "deny-all",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(Fixtures.all())),
                                null))));
    }

    private static Evaluation evaluate(List<BaselineAdminNetworkPolicy> banps, ClusterNetworkPolicy... cnps) {
        PolicySnapshot snapshot = PolicySnapshot.builder("node-0")
                .namespaces(List.of(
                        Fixtures.namespace("a", "kubernetes.io/metadata.name", "a"),
                        Fixtures.namespace("b", "kubernetes.io/metadata.name", "b")))
                .pods(List.of(
                        Fixtures.pod("a", "a0", "node-0", "10.1.0.2"), Fixtures.pod("b", "b0", "node-0", "10.1.1.2")))
                .baselineAdminNetworkPolicies(banps)
                .clusterNetworkPolicies(List.of(cnps))
                .build();
        return PolicyEvaluator.compile(snapshot).evaluate(A_TO_B_80);
    }

    @Test
    void aBaselinePassHandsOverToTheDefaultAndTheBanpAfterItIsNotConsulted() {
        Evaluation e = evaluate(
                List.of(banpDenyAll()), egress("pass", Tier.BASELINE, 500, ClusterNetworkPolicyRuleAction.PASS, 80));
        assertThat(e.verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(e.egress().decision()).isInstanceOf(Decision.DefaultAllow.class);
    }

    @Test
    void withoutThePassTheBanpDecidesAfterTheBaselineTier() {
        Evaluation e = evaluate(
                List.of(banpDenyAll()), egress("other", Tier.BASELINE, 500, ClusterNetworkPolicyRuleAction.PASS, 81));
        assertThat(e.verdict()).isEqualTo(Verdict.DENIED);
        assertThat(e.decidedBy()).contains("BANP default egress rule 0 \"deny-all\" (Deny)");
    }

    @Test
    void inTheBaselineTierTheLowerPriorityNumberWinsWhateverTheNames() {
        Evaluation e = evaluate(
                List.of(),
                egress("a-deny", Tier.BASELINE, 20, ClusterNetworkPolicyRuleAction.DENY, 0),
                egress("z-accept", Tier.BASELINE, 10, ClusterNetworkPolicyRuleAction.ACCEPT, 0));
        assertThat(e.verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(e.decidedBy()).contains("CNP z-accept egress rule 0 \"r\" (Accept)");
    }

    @Test
    void theAdminTierComesBeforeTheBaselineTierWhateverThePriorities() {
        Evaluation e = evaluate(
                List.of(),
                egress("baseline", Tier.BASELINE, 0, ClusterNetworkPolicyRuleAction.ACCEPT, 0),
                egress("admin", Tier.ADMIN, 1000, ClusterNetworkPolicyRuleAction.DENY, 0));
        assertThat(e.verdict()).isEqualTo(Verdict.DENIED);
        assertThat(e.decidedBy()).contains("CNP admin egress rule 0");
    }
}
