package io.kovn.policy.evaluator;

import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.ALLOW;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.DENY;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.PASS;
import static io.kovn.policy.evaluator.SmallCluster.from;
import static io.kovn.policy.evaluator.SmallCluster.fromNs;
import static io.kovn.policy.evaluator.SmallCluster.subjectNs;
import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.policy.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The walkthrough lists the rules considered per tier and names the deciding one. */
class WalkthroughTest {

    @Test
    void walkthroughListsEveryRuleConsideredPerTierAndTheDecision() {
        PolicyEvaluator evaluator = SmallCluster.with()
                .anp(
                        "cluster-control",
                        34,
                        subjectNs("a"),
                        List.of(
                                new AdminNetworkPolicyIngressRule(
                                        "allow-from-monitoring", ALLOW, List.of(fromNs("c")), List.of()),
                                new AdminNetworkPolicyIngressRule(
                                        "web-only",
                                        DENY,
                                        List.of(fromNs("b")),
                                        List.of(AdminNetworkPolicyPort.number("TCP", 80))),
                                new AdminNetworkPolicyIngressRule("pass-b", PASS, List.of(fromNs("b")), List.of())),
                        List.of())
                .np(SmallCluster.networkPolicy(
                        "a", "deny-all", Fixtures.all(), List.of("Ingress"), List.of(), List.of()))
                .banp(subjectNs("a"), List.of(from(ALLOW, fromNs("b"))), List.of())
                .evaluator();
        Evaluation e = evaluator.evaluate(
                Flow.of(Endpoint.parse("b/q1"), Endpoint.parse("a/p1"), ProtocolPort.parse("tcp/443")));
        assertThat(e.render()).isEqualTo("""
                flow: b/q1 (10.0.2.1) -> a/p1 (10.0.1.1) tcp/443
                egress at the source b/q1:
                  tier 1 AdminNetworkPolicy: no rules apply to this pod
                  tier 2 NetworkPolicy: not isolated
                  tier 3 BaselineAdminNetworkPolicy: no rules apply to this pod
                  decision: default allow => allowed
                ingress at the destination a/p1:
                  tier 1 AdminNetworkPolicy
                    [priority 34] ANP cluster-control ingress rule 0 "allow-from-monitoring" (Allow): peer not selected
                    [priority 34] ANP cluster-control ingress rule 1 "web-only" (Deny): port not matched
                    [priority 34] ANP cluster-control ingress rule 2 "pass-b" (Pass): matched
                  tier 2 NetworkPolicy: isolated by a/deny-all
                  tier 3 BaselineAdminNetworkPolicy: not consulted (NetworkPolicy isolates the pod)
                  decision: isolated by NetworkPolicy a/deny-all with no allowing rule => denied
                decided by: ingress: isolated by NetworkPolicy a/deny-all with no allowing rule
                verdict: denied
                """);
        SideResult ingress = e.ingress();
        assertThat(ingress.considered())
                .extracting(RuleCheck::result)
                .containsExactly(
                        RuleCheck.Result.PEER_NOT_SELECTED,
                        RuleCheck.Result.PORT_NOT_MATCHED,
                        RuleCheck.Result.MATCHED);
        assertThat(ingress.decision()).isEqualTo(new Decision.Isolated(List.of("a/deny-all")));
    }

    @Test
    void tiersBelowTheDecidingAnpRuleAreNotReached() {
        Evaluation e = SmallCluster.with()
                .anp("deny-b", 7, subjectNs("a"), List.of(from(DENY, fromNs("b"))), List.of())
                .np(SmallCluster.networkPolicy("a", "from-b", Fixtures.all(), List.of("Ingress"), List.of(), List.of()))
                .evaluator()
                .evaluate(Flow.of(Endpoint.parse("b/q1"), Endpoint.parse("10.0.1.2"), ProtocolPort.parse("udp/53")));
        assertThat(e.render()).contains("""
                ingress at the destination a/p2:
                  tier 1 AdminNetworkPolicy
                    [priority 7] ANP deny-b ingress rule 0 (Deny): matched
                  tier 2 NetworkPolicy: not reached
                  tier 3 BaselineAdminNetworkPolicy: not reached
                  decision: ANP deny-b ingress rule 0 (Deny) => denied
                """);
    }

    @Test
    void truthTableRendersOneMatrixPerPortAndAgreesWithSingleVerdicts() {
        PolicyEvaluator evaluator = SmallCluster.with()
                .anp(
                        "deny-b",
                        1,
                        subjectNs("a"),
                        List.of(from(DENY, fromNs("b"), AdminNetworkPolicyPort.number("TCP", 80))),
                        List.of())
                .evaluator();
        List<ProtocolPort> ports = List.of(ProtocolPort.parse("tcp/80"), ProtocolPort.parse("udp/53"));
        TruthTable table = TruthTable.of(evaluator, evaluator.pods(), ports);
        assertThat(table.rows(0)).containsExactly("...", "...", "XX.");
        assertThat(table.rows(1)).containsExactly("...", "...", "...");
        assertThat(table.render()).isEqualTo("""
                tcp/80 (2 of 9 denied; rows from, columns to; . allowed, X denied)
                            0  1  2
                 0  a/p1    .  .  .
                 1  a/p2    .  .  .
                 2  b/q1    X  X  .

                udp/53 (0 of 9 denied; rows from, columns to; . allowed, X denied)
                            0  1  2
                 0  a/p1    .  .  .
                 1  a/p2    .  .  .
                 2  b/q1    .  .  .
                """);
        for (int p = 0; p < ports.size(); p++) {
            for (int f = 0; f < 3; f++) {
                for (int t = 0; t < 3; t++) {
                    Flow flow = Flow.of(
                            Endpoint.parse(table.from().get(f).label()),
                            Endpoint.parse(table.to().get(t).label()),
                            ports.get(p));
                    assertThat(table.verdict(p, f, t)).isEqualTo(evaluator.verdict(flow));
                }
            }
        }
    }
}
