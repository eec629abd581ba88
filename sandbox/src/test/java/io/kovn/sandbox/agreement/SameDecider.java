package io.kovn.sandbox.agreement;

import io.kovn.policy.evaluator.Decision;
import io.kovn.policy.evaluator.Evaluation;
import io.kovn.policy.evaluator.SideResult;
import io.kovn.policy.evaluator.Tier;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.sandbox.trace.AclRules;
import io.kovn.sandbox.trace.PolicyTracer;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether {@code kovn trace} names what {@code kovn analyze} names as deciding a flow: the same
 * sides (the dropping one, else both) and on each side the same rule, isolation or default allow.
 * One latitude: NetworkPolicy allow ACLs all share one priority, so when several NetworkPolicy rules
 * allow a flow OVN may hit any of them, while the evaluator names the first; there any allowing rule
 * of a NetworkPolicy that isolates the pod is accepted.
 */
final class SameDecider {
    private SameDecider() {
    }

    /**
     * @param egressNamespace the source pod's namespace
     * @param ingressNamespace the destination pod's namespace (null for an address)
     */
    static boolean agrees(Evaluation evaluation, PolicyTracer.Result trace, String egressNamespace, String ingressNamespace) {
        List<SideResult> sides = evaluation.egress().decision().verdict() == Verdict.DENIED ? List.of(evaluation.egress())
                : evaluation.ingress().decision().verdict() == Verdict.DENIED ? List.of(evaluation.ingress())
                : List.of(evaluation.egress(), evaluation.ingress());
        Map<String, String> traced = new HashMap<>();
        for (PolicyTracer.Decider d : trace.decidedBy()) {
            if (d.direction() == null || traced.put(d.direction(), d.what()) != null) return false;
        }
        for (SideResult side : sides) {
            String direction = side.direction().value().toLowerCase(Locale.ROOT);
            String what = traced.remove(direction);
            // No policy applies to a side that is not a pod: the trace may say default allow, or nothing.
            if (side.decision() instanceof Decision.NotApplicable) continue;
            String namespace = side == evaluation.egress() ? egressNamespace : ingressNamespace;
            if (what == null || !sameWhat(side, direction, namespace, what)) return false;
        }
        return traced.isEmpty();
    }

    private static boolean sameWhat(SideResult side, String direction, String namespace, String traced) {
        return switch (side.decision()) {
            case Decision.NotApplicable notApplicable -> true; // skipped above
            case Decision.DefaultAllow allow -> traced.equals(AclRules.DEFAULT_ALLOW);
            case Decision.Isolated isolated -> traced.equals("isolated by NetworkPolicy in namespace " + namespace
                    + " with no allowing rule (" + direction + " default deny)");
            case Decision.ByRule rule when rule.tier() == Tier.NETWORK_POLICY -> side.isolatedBy().stream()
                    .anyMatch(policy -> traced.startsWith("NetworkPolicy " + policy + " " + direction + " rule ")
                            && traced.endsWith(" (Allow)"));
            case Decision.ByRule rule -> traced.equals(rule.rule());
        };
    }
}
