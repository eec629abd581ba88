package io.kovn.policy.admin;

import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import java.util.Optional;

/**
 * What makes a ClusterNetworkPolicy unusable as a whole, the CRD's own checks repeated for objects that bypassed them
 * (an older CRD, a direct etcd write): such a policy is not programmed and its status says why; the others keep
 * working. Rule-level problems (domainNames, unknown protocols, bad CIDRs) are warnings of the translation instead.
 */
public final class ClusterNetworkPolicyChecks {
    /** The v1alpha2 priority range. */
    public static final int MAX_PRIORITY = 1000;

    private ClusterNetworkPolicyChecks() {}

    /** Why {@code cnp} cannot be programmed, or empty when it can. */
    public static Optional<String> invalid(ClusterNetworkPolicy cnp) {
        var spec = cnp.getSpec();
        if (spec == null) {
            return Optional.of("spec is missing; the policy is not programmed");
        }
        if (spec.tier() == null) {
            return Optional.of("spec.tier must be Admin or Baseline; the policy is not programmed");
        }
        if (spec.priority() < 0 || spec.priority() > MAX_PRIORITY) {
            return Optional.of("spec.priority " + spec.priority() + " is outside 0.." + MAX_PRIORITY
                    + "; the policy is not programmed");
        }
        return Optional.empty();
    }
}
