package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterNetworkPolicyCountsTest {
    static final LabelSelector ALL = new LabelSelector();

    static ClusterNetworkPolicy cnp(String name, Tier tier, List<ClusterNetworkPolicyRuleAction> ingress) {
        return ClusterNetworkPolicy.of(
                name,
                new ClusterNetworkPolicySpec(
                        tier,
                        1,
                        ClusterNetworkPolicySubject.namespaces(ALL),
                        ingress.stream()
                                .map(a -> new ClusterNetworkPolicyIngressRule(
                                        null, a, List.of(new ClusterNetworkPolicyIngressPeer(ALL, null)), List.of()))
                                .toList(),
                        List.of(new ClusterNetworkPolicyEgressRule(
                                null,
                                ClusterNetworkPolicyRuleAction.ACCEPT,
                                List.of(ClusterNetworkPolicyEgressPeer.domainNames(List.of("kubernetes.io"))),
                                List.of()))));
    }

    @Test
    void policiesAndRulesAreCountedPerTierDirectionAndAction() {
        ClusterNetworkPolicyCounts counts = ClusterNetworkPolicyCounts.of(List.of(
                cnp("a", Tier.ADMIN, List.of(ClusterNetworkPolicyRuleAction.PASS, ClusterNetworkPolicyRuleAction.DENY)),
                cnp("b", Tier.ADMIN, List.of(ClusterNetworkPolicyRuleAction.DENY)),
                cnp("c", Tier.BASELINE, List.of(ClusterNetworkPolicyRuleAction.ACCEPT)),
                ClusterNetworkPolicy.of("no-tier", new ClusterNetworkPolicySpec(null, 1, null, null, null))));

        assertThat(counts.policies("Admin")).isEqualTo(2);
        assertThat(counts.policies("Baseline")).isEqualTo(1);
        assertThat(counts.rules("Admin", "Ingress", "Deny")).isEqualTo(2);
        assertThat(counts.rules("Admin", "Ingress", "Pass")).isEqualTo(1);
        assertThat(counts.rules("Admin", "Ingress", "Accept")).isZero();
        assertThat(counts.rules("Baseline", "Ingress", "Accept")).isEqualTo(1);
        // a domainNames rule is counted though it is refused: the gauge says what was asked for
        assertThat(counts.rules("Admin", "Egress", "Accept")).isEqualTo(2);
        assertThat(counts.rules("Baseline", "Egress", "Accept")).isEqualTo(1);
    }
}
