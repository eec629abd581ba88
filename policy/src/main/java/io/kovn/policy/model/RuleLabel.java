package io.kovn.policy.model;

/**
 * How kovn names one policy rule to an operator, e.g. {@code ANP cluster-control ingress rule 1 "allow-from-monitoring"
 * (Allow)}. {@code kovn analyze} (from the policy objects) and {@code kovn trace} (from an ACL's external_ids) both
 * print it, so that their explanations of one flow can be compared word for word.
 *
 * @param kind {@code ANP}, {@code BANP}, {@code CNP} or {@code NetworkPolicy}
 * @param policy the policy's name; {@code <namespace>/<name>} for a NetworkPolicy
 * @param direction ingress or egress
 * @param index the rule's index within the policy's ingress or egress list ({@code gress-index})
 * @param ruleName the rule's {@code name} (ANP and BANP rules have one), or null
 * @param action the rule's action as the API spells it: {@code Allow} (v1alpha1), {@code Accept} (v1alpha2),
 *     {@code Deny}, {@code Pass}
 */
public record RuleLabel(
        String kind, String policy, PolicyDirection direction, int index, String ruleName, String action) {
    private static final String NETWORK_POLICY = "NetworkPolicy";

    /** A NetworkPolicy rule: it only allows. */
    public static RuleLabel networkPolicy(String namespace, String name, PolicyDirection direction, int index) {
        return new RuleLabel(NETWORK_POLICY, namespace + "/" + name, direction, index, null, "Allow");
    }

    /**
     * Whether {@code label} names an allowing rule, whichever its index, of NetworkPolicy {@code policy}
     * ({@code <namespace>/<name>}) in {@code direction}.
     */
    public static boolean isNetworkPolicyRule(String label, String policy, PolicyDirection direction) {
        return label.startsWith(rulePrefix(NETWORK_POLICY, policy, direction)) && label.endsWith(" (Allow)");
    }

    private static String rulePrefix(String kind, String policy, PolicyDirection direction) {
        return kind + " " + policy + " " + direction.word() + " rule ";
    }

    /** The same rule with another action (e.g. one the translation had to enforce instead). */
    public RuleLabel withAction(String otherAction) {
        return new RuleLabel(kind, policy, direction, index, ruleName, otherAction);
    }

    @Override
    public String toString() {
        return rulePrefix(kind, policy, direction) + index
                + (ruleName == null || ruleName.isEmpty() ? "" : " \"" + ruleName + "\"") + " (" + action + ")";
    }
}
