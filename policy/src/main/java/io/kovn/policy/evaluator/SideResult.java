package io.kovn.policy.evaluator;

import io.kovn.policy.model.PolicyDirection;
import java.util.List;

/**
 * The walkthrough of one side of a flow.
 *
 * @param direction EGRESS (at the source) or INGRESS (at the destination)
 * @param subject the endpoint whose policies were evaluated
 * @param decision what decided
 * @param considered every rule checked, in order, across tiers
 * @param isolatedBy the NetworkPolicies ({@code ns/name}) isolating the subject in this direction
 */
public record SideResult(
        PolicyDirection direction,
        Target subject,
        Decision decision,
        List<RuleCheck> considered,
        List<String> isolatedBy) {
    public SideResult {
        considered = List.copyOf(considered);
        isolatedBy = List.copyOf(isolatedBy);
    }
}
