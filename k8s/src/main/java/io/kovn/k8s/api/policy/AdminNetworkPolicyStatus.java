package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Status of an AdminNetworkPolicy or BaselineAdminNetworkPolicy: one condition per zone, {@code Ready-In-Zone-<zone>}
 * (list map keyed on {@code type}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdminNetworkPolicyStatus(List<Condition> conditions) {
    public AdminNetworkPolicyStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
