package io.kovn.policy.admin;

import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What {@code kovn analyze} says about kovn's one order across AdminNetworkPolicy, BaselineAdminNetworkPolicy and
 * ClusterNetworkPolicy (docs/network-policy.md, "Ordering across ANP, BANP and CNP"): where kovn's tie-break decides
 * (an ANP and an Admin-tier CNP of equal spec.priority: the ANP first; the BANP after every Baseline-tier CNP), and
 * where the order is undefined (policies of one kind and tier with equal spec.priority share ACL priorities). Pure.
 */
public final class PolicyOrder {
    private PolicyOrder() {}

    /** One line per tie in {@code snapshot}, tier 1 first; empty when every policy has a precedence of its own. */
    public static List<String> notes(PolicySnapshot snapshot) {
        List<AdminPolicy> tier1 = new ArrayList<>();
        List<AdminPolicy> tier3 = new ArrayList<>();
        snapshot.adminNetworkPolicies().stream()
                .filter(a -> a.getSpec() != null)
                .forEach(a -> tier1.add(AdminPolicy.of(a)));
        snapshot.clusterNetworkPolicies().stream()
                .filter(c -> ClusterNetworkPolicyChecks.invalid(c).isEmpty())
                .map(AdminPolicy::of)
                .forEach(c -> (c.aclTier() == AdminPolicy.ADMIN_TIER ? tier1 : tier3).add(c));
        List<String> notes = new ArrayList<>();
        Map<Integer, List<AdminPolicy>> byPriority = new TreeMap<>();
        tier1.forEach(p -> byPriority
                .computeIfAbsent(p.specPriority(), k -> new ArrayList<>())
                .add(p));
        byPriority.forEach((priority, policies) -> tier1Notes(priority, policies, notes));
        Map<Integer, List<AdminPolicy>> baseline = new TreeMap<>();
        tier3.forEach(p -> baseline.computeIfAbsent(p.specPriority(), k -> new ArrayList<>())
                .add(p));
        baseline.forEach((priority, policies) -> {
            if (policies.size() > 1) {
                notes.add("tier 3: " + names(policies) + " share Baseline-tier priority " + priority
                        + ": all are applied, their order is undefined (rule i of each has the same ACL priority)");
            }
        });
        long banps = snapshot.baselineAdminNetworkPolicies().stream()
                .filter(b -> b.getSpec() != null)
                .count();
        if (banps > 0 && !tier3.isEmpty()) {
            notes.add("tier 3: the BaselineAdminNetworkPolicy comes after every Baseline-tier ClusterNetworkPolicy"
                    + " (kovn's order)");
        }
        return notes;
    }

    private static void tier1Notes(int priority, List<AdminPolicy> policies, List<String> notes) {
        List<AdminPolicy> anps =
                policies.stream().filter(p -> !p.isClusterNetworkPolicy()).toList();
        List<AdminPolicy> cnps =
                policies.stream().filter(AdminPolicy::isClusterNetworkPolicy).toList();
        if (!anps.isEmpty() && !cnps.isEmpty()) {
            notes.add("tier 1: " + names(anps) + " and " + names(cnps) + " share priority " + priority + ": "
                    + (anps.size() == 1 ? "the AdminNetworkPolicy wins" : "the AdminNetworkPolicies win")
                    + " (kovn's tie-break: at equal priority ANPs before Admin-tier CNPs)");
        }
        if (anps.size() > 1) {
            notes.add("tier 1: " + names(anps) + " share priority " + priority
                    + ": all are applied, their order is undefined");
        }
        if (cnps.size() > 1) {
            notes.add("tier 1: " + names(cnps) + " share Admin-tier priority " + priority
                    + ": all are applied, their order is undefined");
        }
    }

    private static String names(List<AdminPolicy> policies) {
        return policies.stream()
                .sorted(Comparator.comparing(AdminPolicy::name))
                .map(p -> p.aclPrefix() + " " + p.name())
                .collect(Collectors.joining(", "));
    }
}
