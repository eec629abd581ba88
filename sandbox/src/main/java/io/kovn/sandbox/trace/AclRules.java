package io.kovn.sandbox.trace;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.StatefulPods;
import io.kovn.policy.admin.AdminPolicy;
import io.kovn.policy.admin.ClusterNetworkPolicyChecks;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.RuleLabel;
import java.util.Map;
import java.util.Optional;

/**
 * What a policy ACL stands for, read from its external_ids: the policy rule, named exactly as {@code kovn analyze}
 * names it ({@link RuleLabel}), a namespace's NetworkPolicy isolation, or the default allow. The ACL's own name is no
 * substitute: it carries the rule's index, not its name, and is cut at 63 characters. Pure, but for the lookup of ANP,
 * BANP and ClusterNetworkPolicy rule names.
 */
public final class AclRules {
    /** Said of the cluster port group's ACLs, which decide only when no policy rule did. */
    public static final String DEFAULT_ALLOW = "default allow";

    /** The ANPs, BANPs and ClusterNetworkPolicies whose rule names a trace shows. */
    @FunctionalInterface
    public interface AdminPolicies {
        /** The ANP, BANP or ClusterNetworkPolicy of that name, if it still exists. */
        Optional<AdminPolicy> find(OwnerType type, String name);

        /** None: rules are named by their index and the ACL's action only. */
        AdminPolicies NONE = (type, name) -> Optional.empty();

        /**
         * The policies as the API server has them now. A policy the server will not give (gone, forbidden, unreachable)
         * is named by its rule index: the trace itself does not need it.
         */
        static AdminPolicies fromApi(KubernetesClient client) {
            return (type, name) -> {
                try {
                    return fetch(client, type, name);
                } catch (KubernetesClientException e) {
                    return Optional.empty();
                }
            };
        }

        private static Optional<AdminPolicy> fetch(KubernetesClient client, OwnerType type, String name) {
            return Optional.ofNullable(
                    switch (type) {
                        case ADMIN_NETWORK_POLICY -> {
                            AdminNetworkPolicy anp = client.resources(AdminNetworkPolicy.class)
                                    .withName(name)
                                    .get();
                            yield anp == null || anp.getSpec() == null ? null : AdminPolicy.of(anp);
                        }
                        case BASELINE_ADMIN_NETWORK_POLICY -> {
                            BaselineAdminNetworkPolicy banp = client.resources(BaselineAdminNetworkPolicy.class)
                                    .withName(name)
                                    .get();
                            yield banp == null || banp.getSpec() == null ? null : AdminPolicy.of(banp);
                        }
                        case CLUSTER_NETWORK_POLICY -> {
                            ClusterNetworkPolicy cnp = client.resources(ClusterNetworkPolicy.class)
                                    .withName(name)
                                    .get();
                            yield cnp == null
                                            || ClusterNetworkPolicyChecks.invalid(cnp)
                                                    .isPresent()
                                    ? null
                                    : AdminPolicy.of(cnp);
                        }
                        default -> null;
                    });
        }
    }

    private AclRules() {}

    /**
     * The operator's name for the ACL with these external_ids and this OVN action ({@code allow-related}, {@code drop},
     * {@code pass}, ...), or empty for an ACL kovn's policies did not make.
     */
    public static Optional<String> describe(Map<String, String> externalIds, String aclAction, AdminPolicies policies) {
        Optional<OwnerType> type =
                Optional.ofNullable(externalIds.get(ObjectId.OWNER_TYPE_KEY)).flatMap(OwnerType::fromWireName);
        String name = externalIds.get(ObjectId.NAME_KEY);
        if (type.isEmpty() || name == null) return Optional.empty();
        Optional<PolicyDirection> direction = direction(externalIds.get(IdKey.DIRECTION.key()));
        return switch (type.get()) {
            case ADMIN_NETWORK_POLICY, BASELINE_ADMIN_NETWORK_POLICY, CLUSTER_NETWORK_POLICY ->
                direction.flatMap(d -> gressIndex(externalIds)
                        .map(i -> adminRule(type.get(), name, d, i, aclAction, policies)
                                .toString()));
            case NETWORK_POLICY ->
                direction.flatMap(d -> gressIndex(externalIds).flatMap(i -> {
                    int colon = name.indexOf(':');
                    return colon < 0
                            ? Optional.empty()
                            : Optional.of(
                                    RuleLabel.networkPolicy(name.substring(0, colon), name.substring(colon + 1), d, i)
                                            .toString());
                }));
            case NETPOL_NAMESPACE ->
                direction.map(d -> "Deny".equals(apiAction(aclAction))
                        ? isolation(name, d)
                        : "NetworkPolicy " + d.word() + " ARP/ND allow in namespace " + name);
            case CLUSTER -> StatefulPods.NAME.equals(name) ? Optional.of(DEFAULT_ALLOW) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** What a namespace's NetworkPolicy default deny stands for. */
    public static String isolation(String namespace, PolicyDirection direction) {
        return "isolated by NetworkPolicy in namespace " + namespace + " with no allowing rule (" + direction.word()
                + " default deny)";
    }

    /** The rule as its policy names it; by index and the ACL's action if the policy or rule is gone. */
    private static RuleLabel adminRule(
            OwnerType type,
            String name,
            PolicyDirection direction,
            int index,
            String aclAction,
            AdminPolicies policies) {
        Optional<AdminPolicy> policy = policies.find(type, name);
        Optional<AdminPolicy.Rule> rule = policy.map(p -> p.rule(direction, index));
        if (rule.isPresent()) return policy.get().label(rule.get());
        String action = apiAction(aclAction);
        if (type == OwnerType.CLUSTER_NETWORK_POLICY && action.equals("Allow")) {
            action = "Accept";
        }
        return new RuleLabel(AdminPolicy.aclPrefix(type), name, direction, index, null, action);
    }

    /** OVN's action as the v1alpha1 API's: allow-related and allow are Allow, drop and reject Deny, pass Pass. */
    static String apiAction(String aclAction) {
        return switch (aclAction) {
            case "allow", "allow-related", "allow-stateless" -> "Allow";
            case "drop", "reject" -> "Deny";
            case "pass" -> "Pass";
            default -> aclAction;
        };
    }

    private static Optional<PolicyDirection> direction(String value) {
        for (PolicyDirection d : PolicyDirection.values()) {
            if (d.value().equals(value)) return Optional.of(d);
        }
        return Optional.empty();
    }

    private static Optional<Integer> gressIndex(Map<String, String> externalIds) {
        try {
            return Optional.of(Integer.parseInt(externalIds.getOrDefault(IdKey.GRESS_INDEX.key(), "")));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
