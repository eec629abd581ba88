package io.kovn.bench;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.kovn.k8s.api.policy.NamespacedPod;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyProtocol;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.ProtocolPort;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The issue-5 policy set in v1alpha2 for {@link PolicyBenchCluster}'s namespaces and pods: Admin-tier
 * ClusterNetworkPolicies shaped as {@link AnalyzeBench}'s AdminNetworkPolicies (the same subjects, peers, ports and
 * action rotation, Allow spelled Accept, ports as protocols; 20 rules each, priorities 0, 10, ..., 990) and ten
 * Baseline-tier ones in place of the single BaselineAdminNetworkPolicy (Accept and Deny only, priorities 0..90).
 */
final class BenchClusterNetworkPolicies {
    static final int BASELINES = 10;
    private static final ClusterNetworkPolicyRuleAction[] ACTIONS = {
        ClusterNetworkPolicyRuleAction.ACCEPT, ClusterNetworkPolicyRuleAction.DENY, ClusterNetworkPolicyRuleAction.PASS
    };

    private BenchClusterNetworkPolicies() {}

    /** {@code admin} Admin-tier policies and {@link #BASELINES} Baseline-tier ones. */
    static List<ClusterNetworkPolicy> of(int admin) {
        List<ClusterNetworkPolicy> cnps = new ArrayList<>();
        for (int k = 0; k < admin; k++) {
            cnps.add(ClusterNetworkPolicy.of(
                    "cnp-" + k,
                    new ClusterNetworkPolicySpec(
                            Tier.ADMIN,
                            k * 10,
                            ClusterNetworkPolicySubject.namespaces(labels("tenant", "t" + (k % AnalyzeBench.TENANTS))),
                            ingress(k),
                            egress(k))));
        }
        for (int j = 0; j < BASELINES; j++) {
            cnps.add(baseline(j));
        }
        return cnps;
    }

    private static ClusterNetworkPolicy baseline(int j) {
        return ClusterNetworkPolicy.of(
                "baseline-" + j,
                new ClusterNetworkPolicySpec(
                        Tier.BASELINE,
                        j * 10,
                        ClusterNetworkPolicySubject.namespaces(labels("tier", "tier" + (j % 5))),
                        List.of(
                                new ClusterNetworkPolicyIngressRule(
                                        "accept-web",
                                        ClusterNetworkPolicyRuleAction.ACCEPT,
                                        List.of(new ClusterNetworkPolicyIngressPeer(
                                                null,
                                                new NamespacedPod(
                                                        labels("tier", "tier" + (j % 5)),
                                                        labels("app", "a" + (j % 5))))),
                                        List.of(ClusterNetworkPolicyProtocol.tcp(80))),
                                new ClusterNetworkPolicyIngressRule(
                                        "deny-tenant",
                                        ClusterNetworkPolicyRuleAction.DENY,
                                        List.of(new ClusterNetworkPolicyIngressPeer(labels("tenant", "t" + j), null)),
                                        List.of())),
                        List.of(new ClusterNetworkPolicyEgressRule(
                                "deny-internet",
                                ClusterNetworkPolicyRuleAction.DENY,
                                List.of(ClusterNetworkPolicyEgressPeer.networks(List.of("0.0.0.0/0"))),
                                List.of(ClusterNetworkPolicyProtocol.tcp(80 + j))))));
    }

    private static List<ClusterNetworkPolicyProtocol> protocols(int r) {
        return switch (r % 4) {
            case 0 -> List.of();
            case 1 -> List.of(ClusterNetworkPolicyProtocol.tcp(80), ClusterNetworkPolicyProtocol.udp(53));
            case 2 ->
                List.of(
                        ClusterNetworkPolicyProtocol.of("TCP", ProtocolPort.range(1000, 2000)),
                        ClusterNetworkPolicyProtocol.sctp(9003));
            default -> List.of(ClusterNetworkPolicyProtocol.namedPort("web"));
        };
    }

    private static List<ClusterNetworkPolicyIngressRule> ingress(int k) {
        List<ClusterNetworkPolicyIngressRule> rules = new ArrayList<>();
        for (int r = 0; r < AnalyzeBench.RULES_PER_DIRECTION; r++) {
            ClusterNetworkPolicyIngressPeer peer = r % 2 == 0
                    ? new ClusterNetworkPolicyIngressPeer(
                            labels("tenant", "t" + ((k + r + 1) % AnalyzeBench.TENANTS)), null)
                    : new ClusterNetworkPolicyIngressPeer(
                            null,
                            new NamespacedPod(labels("tier", "tier" + (r % 5)), labels("app", "a" + ((k + r) % 5))));
            rules.add(
                    new ClusterNetworkPolicyIngressRule("in-" + r, ACTIONS[(k + r) % 3], List.of(peer), protocols(r)));
        }
        return rules;
    }

    private static List<ClusterNetworkPolicyEgressRule> egress(int k) {
        List<ClusterNetworkPolicyEgressRule> rules = new ArrayList<>();
        for (int r = 0; r < AnalyzeBench.RULES_PER_DIRECTION; r++) {
            ClusterNetworkPolicyEgressPeer peer = switch (r % 4) {
                case 0 ->
                    ClusterNetworkPolicyEgressPeer.namespaces(
                            labels("tenant", "t" + ((k + r + 1) % AnalyzeBench.TENANTS)));
                case 1 ->
                    ClusterNetworkPolicyEgressPeer.pods(
                            labels("tier", "tier" + (r % 5)), labels("role", "r" + (r % 2)));
                case 2 ->
                    ClusterNetworkPolicyEgressPeer.networks(
                            List.of("192.168." + r + ".0/24", "10." + (1 + k % 2) + "." + r + ".0/24"));
                default -> ClusterNetworkPolicyEgressPeer.nodes(labels("role", "control"));
            };
            rules.add(new ClusterNetworkPolicyEgressRule(
                    "out-" + r, ACTIONS[(k + r) % 3], List.of(peer), r % 4 == 3 ? List.of() : protocols(r)));
        }
        return rules;
    }

    private static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().withMatchLabels(Map.of(key, value)).build();
    }
}
