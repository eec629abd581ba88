package io.kovn.policy.evaluator;

/** What a matching rule does. NetworkPolicy rules only allow. */
public enum RuleAction {
    ALLOW("Allow"),
    DENY("Deny"),
    /** Skip the remaining AdminNetworkPolicy rules; NetworkPolicy, then the baseline, decide. */
    PASS("Pass");

    private final String apiName;

    RuleAction(String apiName) {
        this.apiName = apiName;
    }

    /** {@code Allow}, {@code Deny} or {@code Pass}. */
    public String apiName() {
        return apiName;
    }
}
