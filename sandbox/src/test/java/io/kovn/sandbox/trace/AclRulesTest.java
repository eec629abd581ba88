package io.kovn.sandbox.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.admin.AdminPolicy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An ACL's external_ids back to the rule an operator wrote, in the words of {@code kovn analyze}. */
class AclRulesTest {
    private static final AdminNetworkPolicy CLUSTER_CONTROL = AdminNetworkPolicy.of(
            "cluster-control",
            new AdminNetworkPolicySpec(
                    34,
                    null,
                    List.of(
                            new AdminNetworkPolicyIngressRule(
                                    "allow-from-ingress-nginx",
                                    AdminNetworkPolicyRuleAction.ALLOW,
                                    List.of(),
                                    List.of()),
                            new AdminNetworkPolicyIngressRule(
                                    "allow-from-monitoring", AdminNetworkPolicyRuleAction.ALLOW, List.of(), List.of()),
                            new AdminNetworkPolicyIngressRule(
                                    "pass-from-open-tenants", AdminNetworkPolicyRuleAction.PASS, List.of(), List.of())),
                    List.of(new AdminNetworkPolicyEgressRule(
                            "deny-to-sensitive", AdminNetworkPolicyRuleAction.DENY, List.of(), List.of()))));
    private static final AclRules.AdminPolicies API =
            (type, name) -> type == OwnerType.ADMIN_NETWORK_POLICY && name.equals("cluster-control")
                    ? Optional.of(AdminPolicy.of(CLUSTER_CONTROL))
                    : Optional.empty();

    private static Map<String, String> ruleAcl(OwnerType type, String name, String direction, int index) {
        return ObjectId.of(type, name)
                .with(IdKey.DIRECTION, direction)
                .with(IdKey.GRESS_INDEX, index)
                .with(IdKey.PORT_POLICY_PROTOCOL, "tcp")
                .externalIds();
    }

    @Test
    void anAdminRuleIsNamedAsItsPolicyNamesIt() {
        assertThat(AclRules.describe(
                        ruleAcl(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control", "Ingress", 1), "allow-related", API))
                .hasValue("ANP cluster-control ingress rule 1 \"allow-from-monitoring\" (Allow)");
        assertThat(AclRules.describe(
                        ruleAcl(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control", "Egress", 0), "drop", API))
                .hasValue("ANP cluster-control egress rule 0 \"deny-to-sensitive\" (Deny)");
    }

    @Test
    void aClusterNetworkPolicyRuleIsNamedWithTheV1alpha2Action() {
        ClusterNetworkPolicy cnp = ClusterNetworkPolicy.of(
                "sensitive",
                new ClusterNetworkPolicySpec(
                        Tier.BASELINE,
                        3,
                        null,
                        List.of(new ClusterNetworkPolicyIngressRule(
                                "accept-web", ClusterNetworkPolicyRuleAction.ACCEPT, List.of(), List.of())),
                        List.of()));
        AclRules.AdminPolicies api = (type, name) ->
                type == OwnerType.CLUSTER_NETWORK_POLICY ? Optional.of(AdminPolicy.of(cnp)) : Optional.empty();
        assertThat(AclRules.describe(
                        ruleAcl(OwnerType.CLUSTER_NETWORK_POLICY, "sensitive", "Ingress", 0), "allow-related", api))
                .hasValue("CNP sensitive ingress rule 0 \"accept-web\" (Accept)");
        assertThat(AclRules.describe(
                        ruleAcl(OwnerType.CLUSTER_NETWORK_POLICY, "gone", "Egress", 2), "allow-related", api))
                .as("a policy that is gone: by index, still in v1alpha2's words")
                .hasValue("CNP gone egress rule 2 (Accept)");
    }

    @Test
    void theLabelIsTheOneTheEvaluatorPrints() {
        AdminPolicy policy = AdminPolicy.of(CLUSTER_CONTROL);
        for (AdminPolicy.Rule rule : policy.rules()) {
            assertThat(AclRules.describe(
                            ruleAcl(
                                    OwnerType.ADMIN_NETWORK_POLICY,
                                    "cluster-control",
                                    rule.direction().value(),
                                    rule.index()),
                            "pass",
                            API))
                    .hasValue(policy.label(rule).toString());
        }
    }

    @Test
    void aRuleWhosePolicyIsGoneIsNamedByIndexAndTheAclsAction() {
        assertThat(AclRules.describe(
                        ruleAcl(OwnerType.BASELINE_ADMIN_NETWORK_POLICY, "default", "Egress", 3), "drop", API))
                .hasValue("BANP default egress rule 3 (Deny)");
        assertThat(AclRules.describe(
                        ruleAcl(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control", "Ingress", 9),
                        "pass",
                        AclRules.AdminPolicies.NONE))
                .hasValue("ANP cluster-control ingress rule 9 (Pass)");
    }

    @Test
    void aPolicyTheApiServerWillNotGiveIsNamedByIndex() {
        try (KubernetesClient unreachable = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("https://127.0.0.1:1")
                        .withRequestRetryBackoffLimit(0)
                        .withAutoConfigure(false)
                        .build())
                .build()) {
            assertThat(AclRules.describe(
                            ruleAcl(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control", "Egress", 0),
                            "drop",
                            AclRules.AdminPolicies.fromApi(unreachable)))
                    .hasValue("ANP cluster-control egress rule 0 (Deny)");
        }
    }

    @Test
    void networkPolicyRulesIsolationAndTheDefaultAllow() {
        assertThat(AclRules.describe(
                        ruleAcl(OwnerType.NETWORK_POLICY, "shop:allow-web", "Ingress", 2), "allow-related", API))
                .hasValue("NetworkPolicy shop/allow-web ingress rule 2 (Allow)");
        ObjectId isolation = ObjectId.of(OwnerType.NETPOL_NAMESPACE, "shop").with(IdKey.DIRECTION, "Egress");
        assertThat(AclRules.describe(isolation.with(IdKey.TYPE, "defaultDeny").externalIds(), "drop", API))
                .hasValue("isolated by NetworkPolicy in namespace shop with no allowing rule (egress default deny)");
        assertThat(AclRules.describe(isolation.with(IdKey.TYPE, "arpAllow").externalIds(), "allow", API))
                .hasValue("NetworkPolicy egress ARP/ND allow in namespace shop");
        assertThat(AclRules.describe(
                        ObjectId.of(OwnerType.CLUSTER, "clusterPortGroup")
                                .with(IdKey.DIRECTION, "Ingress")
                                .externalIds(),
                        "allow-related",
                        API))
                .hasValue(AclRules.DEFAULT_ALLOW);
    }

    @Test
    void aclsKovnsPoliciesDidNotMakeHaveNoRule() {
        assertThat(AclRules.describe(Map.of(), "drop", API)).isEmpty();
        assertThat(AclRules.describe(
                        Map.of("k8s.ovn.org/owner-type", "EgressFirewall", "k8s.ovn.org/name", "x"), "drop", API))
                .isEmpty();
        assertThat(AclRules.describe(
                        Map.of(
                                "k8s.ovn.org/owner-type",
                                "AdminNetworkPolicy",
                                "k8s.ovn.org/name",
                                "x",
                                "direction",
                                "Ingress",
                                "gress-index",
                                "not-a-number"),
                        "drop",
                        API))
                .isEmpty();
    }

    @Test
    void bareExternalIdsAreParsedWithTheirQuotes() {
        assertThat(
                        PolicyTracer.externalIds(
                                "\"k8s.ovn.org/name\"=cluster-control \"k8s.ovn.org/owner-type\"=AdminNetworkPolicy"
                                        + " direction=Ingress gress-index=\"1\" \"k8s.ovn.org/id\"=\"default-network-controller:NetworkPolicy:shop:web\"\n"))
                .containsEntry("k8s.ovn.org/name", "cluster-control")
                .containsEntry("k8s.ovn.org/owner-type", "AdminNetworkPolicy")
                .containsEntry("direction", "Ingress")
                .containsEntry("gress-index", "1")
                .containsEntry("k8s.ovn.org/id", "default-network-controller:NetworkPolicy:shop:web");
        assertThat(PolicyTracer.externalIds("")).isEmpty();
    }
}
