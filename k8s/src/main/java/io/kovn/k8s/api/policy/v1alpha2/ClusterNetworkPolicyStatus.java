package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Status of a ClusterNetworkPolicy: one condition per zone, {@code Ready-In-Zone-<zone>} (list map keyed on
 * {@code type}), as for AdminNetworkPolicies.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterNetworkPolicyStatus(List<Condition> conditions) {
    public ClusterNetworkPolicyStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
