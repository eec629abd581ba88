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
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.RuleLabel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An ANP or BANP in one shape: both translate alike except for tier, priorities and naming.
 *
 * @param ownerType AdminNetworkPolicy or BaselineAdminNetworkPolicy
 * @param name the policy's name
 * @param specPriority spec.priority (BANP: -1)
 * @param subject the subject
 * @param rules ingress rules then egress rules, each with its index within its list
 * @param annotations the policy's annotations (acl-logging)
 */
public record AdminPolicy(
        OwnerType ownerType,
        String name,
        int specPriority,
        AdminNetworkPolicySubject subject,
        List<Rule> rules,
        Map<String, String> annotations) {

    public AdminPolicy {
        rules = List.copyOf(rules);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
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

    /** The ACL name prefix: {@code ANP} or {@code BANP}. */
    public String aclPrefix() {
        return aclPrefix(ownerType);
    }

    /** The ACL name prefix of an ANP ({@code ANP}) or of a BANP ({@code BANP}). */
    public static String aclPrefix(OwnerType ownerType) {
        return ownerType == OwnerType.ADMIN_NETWORK_POLICY ? "ANP" : "BANP";
    }

    /**
     * How analyze and trace name {@code rule} of this policy, e.g. {@code ANP cluster-control ingress rule 1
     * "allow-from-monitoring" (Allow)}. A rule without an action is labelled Deny, as it is enforced.
     */
    public RuleLabel label(Rule rule) {
        String action = rule.action() == null
                ? AdminNetworkPolicyRuleAction.DENY.apiName()
                : rule.action().apiName();
        return new RuleLabel(aclPrefix(), name, rule.direction(), rule.index(), rule.name(), action);
    }

    /** The reference to report about. */
    public PolicyRef ref() {
        return ownerType == OwnerType.ADMIN_NETWORK_POLICY ? PolicyRef.anp(name) : PolicyRef.banp(name);
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
