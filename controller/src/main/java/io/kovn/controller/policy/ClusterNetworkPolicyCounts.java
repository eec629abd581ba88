package io.kovn.controller.policy;

import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the ClusterNetworkPolicy metrics count, from the policies as the API server holds them (pure): policies per
 * tier, and their rules per tier, direction and action, written or not (a rule refused with a condition, such as one
 * with {@code domainNames}, still counts: the gauges say what was asked for, the conditions what was enforced). A
 * policy without a tier (stored before the CRD required one) is counted nowhere.
 *
 * @param policies tier ({@code Admin}, {@code Baseline}) → policies
 * @param rules {@code tier/direction/action} ({@code Admin/Ingress/Accept}) → rules
 */
record ClusterNetworkPolicyCounts(Map<String, Integer> policies, Map<String, Integer> rules) {
    static final ClusterNetworkPolicyCounts NONE = new ClusterNetworkPolicyCounts(Map.of(), Map.of());

    ClusterNetworkPolicyCounts {
        policies = Map.copyOf(policies);
        rules = Map.copyOf(rules);
    }

    static ClusterNetworkPolicyCounts of(List<ClusterNetworkPolicy> cnps) {
        Map<String, Integer> policies = new TreeMap<>();
        Map<String, Integer> rules = new TreeMap<>();
        for (ClusterNetworkPolicy cnp : cnps) {
            ClusterNetworkPolicySpec spec = cnp.getSpec();
            if (spec == null || spec.tier() == null) {
                continue;
            }
            String tier = spec.tier().apiName();
            policies.merge(tier, 1, Integer::sum);
            spec.ingress().forEach(r -> rules.merge(key(spec.tier(), "Ingress", r.action()), 1, Integer::sum));
            spec.egress().forEach(r -> rules.merge(key(spec.tier(), "Egress", r.action()), 1, Integer::sum));
        }
        return new ClusterNetworkPolicyCounts(policies, rules);
    }

    /** A rule without an action (the CRD requires one) counts as Deny, as the ANP gauges count it. */
    private static String key(Tier tier, String direction, ClusterNetworkPolicyRuleAction action) {
        return tier.apiName() + "/" + direction + "/" + (action == null ? "Deny" : action.apiName());
    }

    int policies(String tier) {
        return policies.getOrDefault(tier, 0);
    }

    int rules(String tier, String direction, String action) {
        return rules.getOrDefault(tier + "/" + direction + "/" + action, 0);
    }
}
