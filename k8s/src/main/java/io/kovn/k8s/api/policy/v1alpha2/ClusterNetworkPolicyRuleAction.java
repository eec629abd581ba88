package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What a ClusterNetworkPolicy rule does to matching traffic (v1alpha1's {@code Allow} became {@code Accept}). */
public enum ClusterNetworkPolicyRuleAction {
    /** Accept, with replies; no further rule of this direction in this or a later tier is evaluated. */
    @JsonProperty("Accept")
    ACCEPT,
    /** Drop silently. */
    @JsonProperty("Deny")
    DENY,
    /** Skip the remaining rules of this tier and let the next tier decide. */
    @JsonProperty("Pass")
    PASS;

    /** The API spelling: {@code Accept}, {@code Deny} or {@code Pass}. */
    public String apiName() {
        return switch (this) {
            case ACCEPT -> "Accept";
            case DENY -> "Deny";
            case PASS -> "Pass";
        };
    }
}
