package io.kovn.policy.evaluator;

/**
 * One rule the evaluator looked at for one side of a flow, and why it did or did not match.
 *
 * @param tier the rule's tier
 * @param rule the rule, e.g. {@code ANP cluster-control ingress rule 1 "allow-from-monitoring" (Allow)}
 * @param priority spec.priority of the rule's ANP, -1 for other tiers
 * @param result whether it matched
 */
public record RuleCheck(Tier tier, String rule, int priority, Result result) {

    /** The outcome of checking one rule. */
    public enum Result {
        MATCHED("matched"),
        PEER_NOT_SELECTED("peer not selected"),
        PORT_NOT_MATCHED("port not matched");

        private final String words;

        Result(String words) {
            this.words = words;
        }

        /** How the walkthrough prints it. */
        public String words() {
            return words;
        }
    }
}
