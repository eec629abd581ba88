package io.kovn.policy;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.policy.admin.AdminPolicy;
import io.kovn.policy.admin.AdminPolicyTranslator;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.netpol.NetworkPolicyTranslator;
import io.kovn.policy.select.ClusterIndex;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The translation after changes to pods only (no policy, namespace or node changed since the last full translation):
 * every memoized value that did not read a changed selection is still what a full translation would make, so only the
 * contributions whose values were forgotten are made again, and the others are not even visited. A relabel that moves a
 * pod between 90 of the 2,600 rules' peers costs those 90, not a walk over every policy.
 *
 * <p>Gives up (empty) whenever it cannot tell that the result equals the full translation's: a key it does not know, or
 * a contribution whose warnings changed (the reports would). The caller then translates fully; nothing has been changed
 * yet.
 */
final class PodChangeTranslation {
    private PodChangeTranslation() {}

    /**
     * @param forgotten the keys of the memoized values the pod changes invalidated
     * @param last the previous translation, over the same memo
     */
    static Optional<DesiredPolicyState> translate(
            PolicySnapshot snapshot,
            ClusterIndex index,
            TranslationMemo memo,
            Set<Object> forgotten,
            DesiredPolicyState last) {
        TranslationPlan plan = memo.kept(TranslationPlan.class, TranslationPlan::new);
        Accumulator out = memo.kept(Accumulator.class, Accumulator::new);
        if (!plan.complete() || last == null || !snapshot.previousPriorities().equals(last.priorities())) {
            return Optional.empty();
        }
        AdminPolicyTranslator admin = new AdminPolicyTranslator(
                index, snapshot.localPorts(), snapshot.ipFamilies(), snapshot.ownerController());
        Map<Object, PolicyRows> made = new LinkedHashMap<>();
        Set<String> namespaces = new TreeSet<>();
        for (Object forgottenKey : forgotten) {
            if (!(forgottenKey instanceof List<?> key) || key.isEmpty()) {
                return Optional.empty();
            }
            switch (String.valueOf(key.getFirst())) {
                case "anp", "banp", "cnp" -> {
                    TranslationPlan.Admin a = plan.admin(key);
                    if (a == null) {
                        return Optional.empty();
                    }
                    made.put(
                            key,
                            memo.get(
                                    key,
                                    a.inputs(),
                                    () -> admin.policyRows(a.policy(), a.aclPriority(), a.tier(), memo)));
                }
                case "rule-sets" -> {
                    TranslationPlan.Admin a = plan.ruleOwner(key);
                    AdminPolicy.Rule rule = a == null ? null : ruleOf(a.policy(), key);
                    if (rule == null) {
                        return Optional.empty();
                    }
                    made.put(key, admin.ruleSets(a.policy(), rule, memo));
                }
                case "np" -> namespaces.add(String.valueOf(key.get(1)));
                case "rule-acls", "subject", "acl-ids" -> {
                    // part of an ANP's or BANP's rows, which were forgotten with it and are made above
                }
                default -> {
                    return Optional.empty();
                }
            }
        }
        NetworkPolicyTranslator np = new NetworkPolicyTranslator(
                index, snapshot.localPorts(), snapshot.ipFamilies(), snapshot.ownerController());
        for (String namespace : namespaces) {
            List<NetworkPolicy> policies = plan.networkPolicies.get(namespace);
            if (policies == null) {
                return Optional.empty();
            }
            PolicyTranslator.namespaceRows(
                    snapshot.ownerController(),
                    namespace,
                    policies,
                    plan.namespaceLogging.getOrDefault(namespace, AclLogging.OFF),
                    np,
                    memo,
                    (key, rows, policy) -> made.put(key, rows));
        }
        for (Map.Entry<Object, PolicyRows> e : made.entrySet()) {
            if (!e.getValue().warnings().equals(out.contribution(e.getKey()).warnings())) {
                return Optional.empty(); // its report would change
            }
        }
        out.begin();
        made.forEach(out::add);
        return Optional.of(new DesiredPolicyState(
                out.frozenGroups(),
                out.frozenSets(),
                out.frozenAcls(),
                last.reports(),
                last.priorities(),
                PolicyTranslator.metricsWithRulesOf(last.metrics(), out)));
    }

    /** The rule of {@code policy} whose sets {@code key} names, or null (without making each rule's key). */
    private static AdminPolicy.Rule ruleOf(AdminPolicy policy, List<?> key) {
        AdminPolicy.Rule r = key.get(3) instanceof PolicyDirection direction && key.get(4) instanceof Integer index
                ? policy.rule(direction, index)
                : null;
        return r != null && AdminPolicyTranslator.ruleSetsKey(policy, r).equals(key) ? r : null;
    }
}
