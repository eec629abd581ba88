package io.kovn.policy.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.policy.Fixtures;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Properties over random policy sets (see {@link RandomPolicies}). */
class EvaluatorPropertiesTest {

    private static final List<Endpoint> ENDPOINTS = RandomPolicies.endpoints();

    private static boolean isNetworkedPod(Endpoint e) {
        return e instanceof Endpoint.PodName p && !p.name().equals("host");
    }

    @Property(tries = 50)
    void aTopPriorityAnpDenyDeniesAllIngressFromPodsToItsSubjectWhateverTheLowerTiers(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 2) int subjectNamespace) {
        String ns = RandomPolicies.NAMESPACES.get(subjectNamespace);
        AdminNetworkPolicy top = AdminNetworkPolicy.of(
                "top",
                new AdminNetworkPolicySpec(
                        0,
                        AdminNetworkPolicySubject.namespaces(Fixtures.labels("kubernetes.io/metadata.name", ns)),
                        List.of(new AdminNetworkPolicyIngressRule(
                                "deny-all",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(Fixtures.all())),
                                List.of())),
                        List.of()));
        PolicyEvaluator evaluator = PolicyEvaluator.compile(
                RandomPolicies.snapshot(RandomPolicies.generate(seed).withAnp(top)));
        for (Endpoint from : ENDPOINTS) {
            for (Endpoint to : ENDPOINTS) {
                if (!isNetworkedPod(from)
                        || !(to instanceof Endpoint.PodName p)
                        || !p.namespace().equals(ns)
                        || !isNetworkedPod(to)) {
                    continue;
                }
                for (ProtocolPort port : RandomPolicies.PORTS) {
                    Evaluation e = evaluator.evaluate(Flow.of(from, to, port));
                    if (from.equals(to)) {
                        // A pod's flow to itself never leaves its network namespace: no policy sees it.
                        assertThat(e.verdict()).as(e::render).isEqualTo(Verdict.ALLOWED);
                        continue;
                    }
                    assertThat(e.verdict()).as(e::render).isEqualTo(Verdict.DENIED);
                    assertThat(e.decidedBy())
                            .as(e::render)
                            .isIn(
                                    "ingress: ANP top ingress rule 0 \"deny-all\" (Deny)",
                                    "egress: " + e.egress().decision().describe());
                }
            }
        }
    }

    @Property(tries = 40)
    void aTopPriorityAnpAllowingEverythingBetweenPodsOverridesEveryLowerTier(@ForAll long seed) {
        AdminNetworkPolicy top = AdminNetworkPolicy.of(
                "open",
                new AdminNetworkPolicySpec(
                        0,
                        AdminNetworkPolicySubject.namespaces(Fixtures.all()),
                        List.of(new AdminNetworkPolicyIngressRule(
                                null,
                                AdminNetworkPolicyRuleAction.ALLOW,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(Fixtures.all())),
                                List.of())),
                        List.of(new AdminNetworkPolicyEgressRule(
                                null,
                                AdminNetworkPolicyRuleAction.ALLOW,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(Fixtures.all())),
                                List.of()))));
        PolicyEvaluator evaluator = PolicyEvaluator.compile(
                RandomPolicies.snapshot(RandomPolicies.generate(seed).withAnp(top)));
        List<Target> pods = evaluator.pods();
        TruthTable table = TruthTable.of(evaluator, pods, RandomPolicies.PORTS);
        for (int p = 0; p < RandomPolicies.PORTS.size(); p++) {
            assertThat(table.denied(p)).as(table::render).isZero();
        }
    }

    @Property(tries = 30)
    void removingAllPoliciesAllowsEverything(@ForAll long seed) {
        RandomPolicies.Policies none = new RandomPolicies.Policies(List.of(), List.of(), List.of());
        PolicyEvaluator evaluator = PolicyEvaluator.compile(RandomPolicies.snapshot(none));
        List<Target> all = ENDPOINTS.stream().map(evaluator::resolve).toList();
        ProtocolPort port = RandomPolicies.PORTS.get((int) Math.floorMod(seed, RandomPolicies.PORTS.size()));
        TruthTable table = TruthTable.of(evaluator, all, List.of(port));
        assertThat(table.denied(0)).isZero();
        Evaluation e = evaluator.evaluate(Flow.of(
                ENDPOINTS.get((int) Math.floorMod(seed, ENDPOINTS.size())),
                ENDPOINTS.get((int) Math.floorMod(seed / 7, ENDPOINTS.size())),
                port));
        assertThat(e.verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(e.egress().considered()).isEmpty();
        assertThat(e.ingress().considered()).isEmpty();
    }

    @Property(tries = 40)
    void theFastPathAndTheWalkthroughAlwaysAgree(@ForAll long seed) {
        PolicyEvaluator evaluator = PolicyEvaluator.compile(RandomPolicies.snapshot(RandomPolicies.generate(seed)));
        for (Endpoint from : ENDPOINTS) {
            for (Endpoint to : ENDPOINTS) {
                for (ProtocolPort port : RandomPolicies.PORTS) {
                    Flow flow = Flow.of(from, to, port);
                    Evaluation e = evaluator.evaluate(flow);
                    assertThat(evaluator.verdict(flow)).as(e::render).isEqualTo(e.verdict());
                    assertThat(e.decidedBy()).isNotEmpty();
                    if (!isNetworkedPod(from) && !isNetworkedPod(to)) {
                        assertThat(e.verdict())
                                .as("no policy applies between non-pods")
                                .isEqualTo(Verdict.ALLOWED);
                    }
                }
            }
        }
    }

    @Property(tries = 30)
    void aPolicyWithoutRulesForAPodNeverChangesItsVerdicts(@ForAll long seed) {
        RandomPolicies.Policies policies = RandomPolicies.generate(seed);
        AdminNetworkPolicy empty = AdminNetworkPolicy.of(
                "empty",
                new AdminNetworkPolicySpec(
                        0, AdminNetworkPolicySubject.namespaces(Fixtures.all()), List.of(), List.of()));
        PolicyEvaluator before = PolicyEvaluator.compile(RandomPolicies.snapshot(policies));
        PolicyEvaluator after = PolicyEvaluator.compile(RandomPolicies.snapshot(policies.withAnp(empty)));
        List<Target> pods = before.pods();
        TruthTable a = TruthTable.of(before, pods, RandomPolicies.PORTS);
        TruthTable b = TruthTable.of(after, after.pods(), RandomPolicies.PORTS);
        for (int p = 0; p < RandomPolicies.PORTS.size(); p++) {
            assertThat(b.rows(p)).isEqualTo(a.rows(p));
        }
    }
}
