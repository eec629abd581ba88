package io.kovn.sandbox.trace;

import io.kovn.policy.evaluator.Decision;
import io.kovn.policy.evaluator.Evaluation;
import io.kovn.policy.evaluator.SideResult;
import io.kovn.policy.evaluator.Tier;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.policy.model.RuleLabel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code kovn trace}'s cross-check with {@code kovn analyze}: whether the trace (what OVN was told) reaches the
 * evaluator's verdict (what the policies say) for the reason the evaluator names: the same sides (the dropping one,
 * else both) and on each side the same rule, isolation or default allow. A disagreement means the OVN rows differ from
 * the policies. One latitude: NetworkPolicy allow ACLs all share one priority, so when several NetworkPolicy rules
 * allow a flow OVN may hit any of them, while the evaluator names the first; there any allowing rule of a NetworkPolicy
 * that isolates the pod is accepted.
 */
public final class AnalyzeCrossCheck {
    private AnalyzeCrossCheck() {}

    /**
     * The line {@code kovn trace} prints under its own "decided by": the evaluator's verdict and deciding rule, and
     * whether the trace agrees.
     */
    public static String line(Evaluation evaluation, boolean agrees) {
        return "analyze: " + evaluation.verdict().word()
                + (evaluation.via() == null ? "" : " (" + evaluation.via() + ")")
                + ", decided by " + evaluation.decidedBy()
                + (agrees
                        ? " (agrees)"
                        : " (DISAGREES: the OVN rows differ from the policies; see docs/troubleshooting.md)");
    }

    /**
     * Whether the trace reaches the evaluation's verdict, decided on the same sides by the same rules.
     *
     * @param egressNamespace the source pod's namespace
     * @param ingressNamespace the destination pod's namespace (null for an address)
     */
    public static boolean agrees(
            Evaluation evaluation, PolicyTracer.Result trace, String egressNamespace, String ingressNamespace) {
        if (trace.allowed() != (evaluation.verdict() == Verdict.ALLOWED)) return false;
        List<SideResult> sides = evaluation.egress().decision().verdict() == Verdict.DENIED
                ? List.of(evaluation.egress())
                : evaluation.ingress().decision().verdict() == Verdict.DENIED
                        ? List.of(evaluation.ingress())
                        : List.of(evaluation.egress(), evaluation.ingress());
        Map<String, String> traced = new HashMap<>();
        for (PolicyTracer.Decider d : trace.decidedBy()) {
            if (d.direction() == null || traced.put(d.direction(), d.what()) != null) return false;
        }
        for (SideResult side : sides) {
            String what = traced.remove(side.direction().word());
            // No policy applies to a side that is not a pod: the trace may say default allow, or nothing.
            // Nor to flows between networks: no policy decides those, the trace shows no path.
            if (side.decision() instanceof Decision.NotApplicable || side.decision() instanceof Decision.Unreachable)
                continue;
            String namespace = side == evaluation.egress() ? egressNamespace : ingressNamespace;
            if (what == null || !sameWhat(side, namespace, what)) return false;
        }
        return traced.isEmpty();
    }

    private static boolean sameWhat(SideResult side, String namespace, String traced) {
        return switch (side.decision()) {
            case Decision.NotApplicable notApplicable -> true; // skipped above
            case Decision.Unreachable unreachable -> true; // no policy decided: the trace shows no path
            case Decision.DefaultAllow allow -> traced.equals(AclRules.DEFAULT_ALLOW);
            case Decision.Isolated isolated -> traced.equals(AclRules.isolation(namespace, side.direction()));
            case Decision.ByRule rule
            when rule.tier() == Tier.NETWORK_POLICY ->
                side.isolatedBy().stream()
                        .anyMatch(policy -> RuleLabel.isNetworkPolicyRule(traced, policy, side.direction()));
            case Decision.ByRule rule -> traced.equals(rule.rule());
        };
    }
}
