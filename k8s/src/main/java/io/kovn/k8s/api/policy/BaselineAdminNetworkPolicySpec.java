package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Spec of a {@link BaselineAdminNetworkPolicy}: like {@link AdminNetworkPolicySpec} without a priority; rule actions
 * are limited to Allow and Deny (the CRD enforces it).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record BaselineAdminNetworkPolicySpec(
        AdminNetworkPolicySubject subject,
        List<AdminNetworkPolicyIngressRule> ingress,
        List<AdminNetworkPolicyEgressRule> egress) {

    public BaselineAdminNetworkPolicySpec {
        ingress = ingress == null ? List.of() : List.copyOf(ingress);
        egress = egress == null ? List.of() : List.copyOf(egress);
    }
}
