package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The tier of a {@link ClusterNetworkPolicy}: before NetworkPolicies, or after them. */
public enum Tier {
    /** Evaluated before NetworkPolicies; Accept and Deny are final, Pass hands over to NetworkPolicy. */
    @JsonProperty("Admin")
    ADMIN,
    /** Evaluated only where no NetworkPolicy selects the pod; the last tier before the default (allow). */
    @JsonProperty("Baseline")
    BASELINE;

    /** The API spelling: {@code Admin} or {@code Baseline}. */
    public String apiName() {
        return this == ADMIN ? "Admin" : "Baseline";
    }
}
