package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Spec of an {@link AdminNetworkPolicy}.
 *
 * @param priority 0..1000, lower number = higher precedence; equal priorities are allowed (order undefined)
 * @param subject the pods the rules apply to
 * @param ingress up to 100 rules, first match wins; empty = no effect on ingress
 * @param egress up to 100 rules, first match wins; empty = no effect on egress
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AdminNetworkPolicySpec(
        int priority,
        AdminNetworkPolicySubject subject,
        List<AdminNetworkPolicyIngressRule> ingress,
        List<AdminNetworkPolicyEgressRule> egress) {

    public AdminNetworkPolicySpec {
        ingress = ingress == null ? List.of() : List.copyOf(ingress);
        egress = egress == null ? List.of() : List.copyOf(egress);
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    @Override
    public int priority() {
        return priority;
    }
}
