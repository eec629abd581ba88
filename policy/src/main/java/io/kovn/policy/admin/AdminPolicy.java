package io.kovn.policy.admin;

import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.RuleLabel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An ANP, a BANP or a ClusterNetworkPolicy (either tier) in one shape: all translate alike except for tier, priorities
 * and naming. A CNP's v1alpha2 fields are read into the v1alpha1 shapes ({@link ClusterNetworkPolicies}): Accept as
 * Allow, each protocol entry as a port.
 *
 * @param ownerType AdminNetworkPolicy, BaselineAdminNetworkPolicy or ClusterNetworkPolicy
 * @param name the policy's name
 * @param specPriority spec.priority (BANP: -1)
 * @param subject the subject
 * @param rules ingress rules then egress rules, each with its index within its list
 * @param annotations the policy's annotations (acl-logging)
 * @param aclTier the OVN ACL tier: {@value #ADMIN_TIER} (ANP, Admin-tier CNP) or {@value #BASELINE_TIER} (BANP,
 *     Baseline-tier CNP)
 */
public record AdminPolicy(
        OwnerType ownerType,
        String name,
        int specPriority,
        AdminNetworkPolicySubject subject,
        List<Rule> rules,
        Map<String, String> annotations,
        int aclTier) {
    /** The ACL tier of ANPs and Admin-tier CNPs. */
    public static final int ADMIN_TIER = 1;
    /** The ACL tier of the BANP and Baseline-tier CNPs. */
    public static final int BASELINE_TIER = 3;
    /**
     * The {@link #precedence()} of the BANP: after every Baseline-tier CNP (whose precedences are at most
     * {@code 2*1000+1}).
     */
    public static final int BANP_PRECEDENCE = 2 * 1001;

    public AdminPolicy {
        rules = List.copyOf(rules);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** An ANP (tier 1) or BANP (tier 3) shape. */
    public AdminPolicy(
            OwnerType ownerType,
            String name,
            int specPriority,
            AdminNetworkPolicySubject subject,
            List<Rule> rules,
            Map<String, String> annotations) {
        this(
                ownerType,
                name,
                specPriority,
                subject,
                rules,
                annotations,
                ownerType == OwnerType.BASELINE_ADMIN_NETWORK_POLICY ? BASELINE_TIER : ADMIN_TIER);
    }

    /** Whether this is a ClusterNetworkPolicy (v1alpha2). */
    public boolean isClusterNetworkPolicy() {
        return ownerType == OwnerType.CLUSTER_NETWORK_POLICY;
    }

    /**
     * kovn's one order within a tier, lower first (docs/network-policy.md, "Ordering across ANP, BANP and CNP"): tier 1
     * orders by spec.priority, and at equal spec.priority the AdminNetworkPolicies come before the
     * ClusterNetworkPolicies ({@code 2*priority} and {@code 2*priority+1}); tier 3 orders the Baseline-tier CNPs by
     * spec.priority and puts the BANP last ({@value #BANP_PRECEDENCE}). Policies of equal precedence share ACL
     * priorities, as the API leaves their order undefined.
     */
    public int precedence() {
        if (ownerType == OwnerType.BASELINE_ADMIN_NETWORK_POLICY) {
            return BANP_PRECEDENCE;
        }
        return 2 * specPriority + (isClusterNetworkPolicy() ? 1 : 0);
    }

    /**
     * One rule, direction-neutral (ingress peers expressed as egress peers with only {@code namespaces}/{@code pods}
     * set).
     */
    public record Rule(
            PolicyDirection direction,
            int index,
            String name,
            AdminNetworkPolicyRuleAction action,
            List<AdminNetworkPolicyEgressPeer> peers,
            List<AdminNetworkPolicyPort> ports) {
        public Rule {
            peers = List.copyOf(peers);
            ports = List.copyOf(ports);
        }
    }

    /**
     * The rule of that direction and index, or null: found by its position (ingress rules come first, each list in
     * index order), not by a walk.
     */
    public Rule rule(PolicyDirection direction, int index) {
        int egress = rules.isEmpty() || rules.getLast().direction() != PolicyDirection.EGRESS
                ? 0
                : rules.getLast().index() + 1;
        int at = direction == PolicyDirection.INGRESS ? index : rules.size() - egress + index;
        if (index < 0 || at < 0 || at >= rules.size()) {
            return null;
        }
        Rule r = rules.get(at);
        return r.direction() == direction && r.index() == index ? r : null;
    }

    /** The ACL name prefix: {@code ANP}, {@code BANP} or {@code CNP}. */
    public String aclPrefix() {
        return aclPrefix(ownerType);
    }

    /** The ACL name prefix of an ANP ({@code ANP}), a BANP ({@code BANP}) or a ClusterNetworkPolicy ({@code CNP}). */
    public static String aclPrefix(OwnerType ownerType) {
        return switch (ownerType) {
            case ADMIN_NETWORK_POLICY -> "ANP";
            case CLUSTER_NETWORK_POLICY -> "CNP";
            default -> "BANP";
        };
    }

    /**
     * How analyze and trace name {@code rule} of this policy, e.g. {@code ANP cluster-control ingress rule 1
     * "allow-from-monitoring" (Allow)} or {@code CNP sensitive egress rule 0 (Accept)}: the action as the policy's own
     * API spells it. A rule without an action is labelled Deny, as it is enforced.
     */
    public RuleLabel label(Rule rule) {
        AdminNetworkPolicyRuleAction action = rule.action() == null ? AdminNetworkPolicyRuleAction.DENY : rule.action();
        String spelled =
                isClusterNetworkPolicy() && action == AdminNetworkPolicyRuleAction.ALLOW ? "Accept" : action.apiName();
        return new RuleLabel(aclPrefix(), name, rule.direction(), rule.index(), rule.name(), spelled);
    }

    /** The reference to report about. */
    public PolicyRef ref() {
        return switch (ownerType) {
            case ADMIN_NETWORK_POLICY -> PolicyRef.anp(name);
            case CLUSTER_NETWORK_POLICY -> PolicyRef.cnp(name);
            default -> PolicyRef.banp(name);
        };
    }

    /** The largest of the ingress and egress rule counts: the ACL priorities the policy needs. */
    public int priorityBandSize() {
        int ingress = 0;
        for (Rule r : rules) {
            if (r.direction() == PolicyDirection.INGRESS) {
                ingress++;
            }
        }
        return Math.max(ingress, rules.size() - ingress);
    }

    public static AdminPolicy of(AdminNetworkPolicy anp) {
        var spec = anp.getSpec();
        return new AdminPolicy(
                OwnerType.ADMIN_NETWORK_POLICY,
                anp.getMetadata().getName(),
                spec.priority(),
                spec.subject(),
                rules(spec.ingress(), spec.egress()),
                anp.getMetadata().getAnnotations());
    }

    public static AdminPolicy of(BaselineAdminNetworkPolicy banp) {
        var spec = banp.getSpec();
        return new AdminPolicy(
                OwnerType.BASELINE_ADMIN_NETWORK_POLICY,
                banp.getMetadata().getName(),
                -1,
                spec.subject(),
                rules(spec.ingress(), spec.egress()),
                banp.getMetadata().getAnnotations());
    }

    /** A ClusterNetworkPolicy of either tier (its spec must be set); see {@link ClusterNetworkPolicies}. */
    public static AdminPolicy of(ClusterNetworkPolicy cnp) {
        var spec = cnp.getSpec();
        return new AdminPolicy(
                OwnerType.CLUSTER_NETWORK_POLICY,
                cnp.getMetadata().getName(),
                spec.priority(),
                ClusterNetworkPolicies.subject(spec.subject()),
                ClusterNetworkPolicies.rules(spec),
                cnp.getMetadata().getAnnotations(),
                spec.tier() == Tier.BASELINE ? BASELINE_TIER : ADMIN_TIER);
    }

    private static List<Rule> rules(
            List<AdminNetworkPolicyIngressRule> ingress, List<AdminNetworkPolicyEgressRule> egress) {
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < ingress.size(); i++) {
            AdminNetworkPolicyIngressRule r = ingress.get(i);
            List<AdminNetworkPolicyEgressPeer> peers = new ArrayList<>();
            for (AdminNetworkPolicyIngressPeer p : r.from()) {
                peers.add(new AdminNetworkPolicyEgressPeer(p.namespaces(), p.pods(), null, null, null));
            }
            rules.add(new Rule(PolicyDirection.INGRESS, i, r.name(), r.action(), peers, r.ports()));
        }
        for (int i = 0; i < egress.size(); i++) {
            AdminNetworkPolicyEgressRule r = egress.get(i);
            rules.add(new Rule(PolicyDirection.EGRESS, i, r.name(), r.action(), r.to(), r.ports()));
        }
        return rules;
    }
}
