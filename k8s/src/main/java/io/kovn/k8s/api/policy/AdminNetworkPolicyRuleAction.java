package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What a rule does to matching traffic. BANP rules use only Allow and Deny. */
public enum AdminNetworkPolicyRuleAction {
    /** Allow, even if a lower tier would deny. */
    @JsonProperty("Allow")
    ALLOW,
    /** Drop silently. */
    @JsonProperty("Deny")
    DENY,
    /** Skip the remaining ANP rules and let NetworkPolicy (then BANP) decide. ANP only. */
    @JsonProperty("Pass")
    PASS;

    /** The API spelling: {@code Allow}, {@code Deny} or {@code Pass}. */
    public String apiName() {
        return switch (this) {
            case ALLOW -> "Allow";
            case DENY -> "Deny";
            case PASS -> "Pass";
        };
    }
}
