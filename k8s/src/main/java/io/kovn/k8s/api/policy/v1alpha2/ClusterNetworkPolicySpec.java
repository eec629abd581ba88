package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Spec of a {@link ClusterNetworkPolicy}.
 *
 * @param tier Admin or Baseline (required; null only when the stored object predates the CRD: treated as invalid)
 * @param priority 0..1000 within the tier, lower number = higher precedence; equal priorities are allowed (the API
 *     leaves their order to the implementation: kovn's tie-break is in docs/network-policy.md)
 * @param subject the pods the rules apply to
 * @param ingress up to 25 rules, first match wins; empty = no effect on ingress
 * @param egress up to 25 rules, first match wins; empty = no effect on egress
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ClusterNetworkPolicySpec(
        Tier tier,
        int priority,
        ClusterNetworkPolicySubject subject,
        List<ClusterNetworkPolicyIngressRule> ingress,
        List<ClusterNetworkPolicyEgressRule> egress) {

    public ClusterNetworkPolicySpec {
        ingress = ingress == null ? List.of() : List.copyOf(ingress);
        egress = egress == null ? List.of() : List.copyOf(egress);
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    @Override
    public int priority() {
        return priority;
    }
}
