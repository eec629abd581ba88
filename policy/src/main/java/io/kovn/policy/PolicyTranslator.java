package io.kovn.policy;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.policy.admin.AdminPolicy;
import io.kovn.policy.admin.AdminPolicyTranslator;
import io.kovn.policy.admin.AnpPriorities;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.model.ChangedRows;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.FrozenRows;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicyMetrics;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyReport;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.model.PolicyWarning;
import io.kovn.policy.netpol.DefaultDeny;
import io.kovn.policy.netpol.NetworkPolicyTranslator;
import io.kovn.policy.select.ClusterIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The network policy model: {@link PolicySnapshot} in, {@link DesiredPolicyState} out. A pure
 * function; the zone controller diffs its output against the northbound database by ownership and
 * writes the difference in one transaction, then publishes the reports.
 *
 * <p>Callers keep {@link DesiredPolicyState#priorities()} and pass it back as
 * {@link PolicySnapshot#previousPriorities()} so that tier-1 ACL priorities stay put across
 * translations; at start they recover it from the database with {@link AnpPriorities#recover}.
 *
 * <p>Precedence is carried by ACL tiers: AdminNetworkPolicy in tier 1 (allow-related / drop / pass),
 * NetworkPolicy in tier 2 (allow-related at 1001 over a per-namespace drop at 1000), the
 * BaselineAdminNetworkPolicy in tier 3. Traffic that no ACL decides is allowed.
 */
public final class PolicyTranslator {
    /** Tier of AdminNetworkPolicy ACLs. */
    public static final int ANP_TIER = 1;
    /** Tier of BaselineAdminNetworkPolicy ACLs. */
    public static final int BANP_TIER = 3;

    private PolicyTranslator() {
    }

    /** Translates the snapshot into the desired rows, reports, priority assignment and metrics. */
    public static DesiredPolicyState translate(PolicySnapshot snapshot) {
        return translate(snapshot, new ClusterIndex(snapshot.namespaces(), snapshot.pods(), snapshot.nodes()),
                TranslationMemo.none());
    }

    /**
     * The same translation, over an index that holds exactly the snapshot's namespaces, pods and nodes,
     * reusing from {@code memo} the rules and policies whose inputs did not change
     * ({@link IncrementalTranslator} keeps both between translations).
     */
    static DesiredPolicyState translate(PolicySnapshot snapshot, ClusterIndex index, TranslationMemo memo) {
        Accumulator out = memo.kept(Accumulator.class, Accumulator::new);
        out.begin();
        Map<String, Object> anpSpecs = new HashMap<>();
        snapshot.adminNetworkPolicies().forEach(a -> anpSpecs.put(a.getMetadata().getName(), a.getSpec()));
        Map<String, Object> banpSpecs = new HashMap<>();
        snapshot.baselineAdminNetworkPolicies().forEach(b -> banpSpecs.put(b.getMetadata().getName(), b.getSpec()));

        AdminPolicyTranslator admin = new AdminPolicyTranslator(index, snapshot.localPorts(), snapshot.ipFamilies(), snapshot.ownerController());
        AdminPolicies shapes = memo.kept(AdminPolicies.class, AdminPolicies::new);
        shapes.roll();
        List<AdminPolicy> anps = snapshot.adminNetworkPolicies().stream()
                .filter(a -> a.getSpec() != null)
                .map(a -> shapes.of(a, AdminPolicy::of))
                .sorted(Comparator.comparingInt(AdminPolicy::specPriority).thenComparing(AdminPolicy::name))
                .toList();
        TreeMap<Integer, Integer> sizes = new TreeMap<>();
        Map<Integer, List<String>> byPriority = new TreeMap<>();
        for (AdminPolicy anp : anps) {
            sizes.merge(anp.specPriority(), anp.priorityBandSize(), Math::max);
            byPriority.computeIfAbsent(anp.specPriority(), p -> new ArrayList<>()).add(anp.name());
        }
        AnpPriorities.Result priorities = AnpPriorities.assign(sizes, snapshot.previousPriorities());
        for (AdminPolicy anp : anps) {
            List<PolicyWarning> extra = new ArrayList<>();
            List<String> peers = byPriority.get(anp.specPriority()).stream().filter(n -> !n.equals(anp.name())).toList();
            if (!peers.isEmpty()) {
                extra.add(new PolicyWarning(PolicyWarning.DUPLICATE_PRIORITY, "This policy has the same priority "
                        + anp.specPriority() + " as " + String.join(", ", peers) + "; all are applied, their relative order is undefined"));
            }
            if (priorities.unplaced().contains(anp.specPriority())) {
                String error = "cannot fit the rules of priority " + anp.specPriority()
                        + " into tier 1's ACL priority space; the policy is not programmed";
                extra.add(new PolicyWarning(PolicyWarning.CANNOT_FIT, error));
                out.report(new PolicyReport(anp.ref(), extra, Optional.of(error)));
                continue;
            }
            int spec = anp.specPriority();
            List<Integer> band = new ArrayList<>();
            for (int i = 0; i < anp.priorityBandSize(); i++) {
                band.add(priorities.aclPriority(spec, i));
            }
            // AdminPolicy is a function of the object's spec and annotations: the informer's spec
            // instance is the same until it changes, so this compares in O(1) when nothing did
            PolicyRows rows = memo.get(java.util.Arrays.asList("anp", anp.name()),
                    java.util.Arrays.asList(anpSpecs.get(anp.name()), anp.annotations(), band),
                    () -> admin.translate(anp, i -> priorities.aclPriority(spec, i), ANP_TIER, memo));
            out.add(java.util.Arrays.asList("anp", anp.name()), rows);
            extra.addAll(rows.warnings());
            out.report(new PolicyReport(anp.ref(), extra, Optional.empty()));
        }

        List<AdminPolicy> banps = snapshot.baselineAdminNetworkPolicies().stream()
                .filter(b -> b.getSpec() != null)
                .map(b -> shapes.of(b, AdminPolicy::of))
                .sorted(Comparator.comparing(AdminPolicy::name))
                .toList();
        for (AdminPolicy banp : banps) {
            if (!BaselineAdminNetworkPolicy.SINGLETON_NAME.equals(banp.name())) {
                String error = "only the BaselineAdminNetworkPolicy named \"default\" is applied";
                out.report(new PolicyReport(banp.ref(), List.of(), Optional.of(error)));
                continue;
            }
            PolicyRows rows = memo.get(java.util.Arrays.asList("banp", banp.name()),
                    java.util.Arrays.asList(banpSpecs.get(banp.name()), banp.annotations()),
                    () -> admin.translate(banp, i -> AnpPriorities.BANP_TOP - i, BANP_TIER, memo));
            out.add(java.util.Arrays.asList("banp", banp.name()), rows);
            out.report(new PolicyReport(banp.ref(), rows.warnings(), Optional.empty()));
        }

        translateNetworkPolicies(snapshot, index, memo, out);
        out.end();
        PolicyMetrics metrics = metrics(snapshot, out);
        return new DesiredPolicyState(out.frozenGroups(), out.frozenSets(), out.frozenAcls(), out.reports,
                priorities.assignment(), metrics);
    }

    /**
     * The rows a translation over {@code memo} put or removed (by key), compared with the translation
     * over the same memo before it.
     */
    static ChangedRows touched(TranslationMemo memo) {
        Accumulator out = memo.kept(Accumulator.class, Accumulator::new);
        return new ChangedRows(out.touchedGroups, out.touchedSets, out.touchedAcls);
    }

    private static void translateNetworkPolicies(PolicySnapshot snapshot, ClusterIndex index, TranslationMemo memo, Accumulator out) {
        NetworkPolicyTranslator np = new NetworkPolicyTranslator(index, snapshot.localPorts(), snapshot.ipFamilies(), snapshot.ownerController());
        Map<String, Map<PolicyDirection, TreeSet<String>>> isolated = new TreeMap<>();
        List<NetworkPolicy> policies = snapshot.networkPolicies().stream()
                .filter(p -> p.getSpec() != null)
                .sorted(Comparator.comparing((NetworkPolicy p) -> p.getMetadata().getNamespace()).thenComparing(p -> p.getMetadata().getName()))
                .toList();
        Map<String, AclLogging> loggingByNamespace = new HashMap<>();
        for (var ns : snapshot.namespaces()) {
            loggingByNamespace.put(ns.getMetadata().getName(), AclLogging.fromAnnotations(ns.getMetadata().getAnnotations()));
        }
        for (NetworkPolicy policy : policies) {
            String namespace = policy.getMetadata().getNamespace();
            AclLogging logging = loggingByNamespace.getOrDefault(namespace, AclLogging.OFF);
            PolicyRows rows = memo.get(java.util.Arrays.asList("np", namespace, policy.getMetadata().getName()),
                    java.util.Arrays.asList(policy.getSpec(), logging), () -> np.translate(policy, logging));
            out.add(java.util.Arrays.asList("np", namespace, policy.getMetadata().getName()), rows);
            if (!rows.warnings().isEmpty()) {
                out.report(new PolicyReport(PolicyRef.networkPolicy(namespace, policy.getMetadata().getName()), rows.warnings(), Optional.empty()));
            }
            // The policy's port group holds its selected local pods: exactly the pods it isolates here.
            var byDirection = isolated.computeIfAbsent(namespace, k -> new java.util.EnumMap<>(PolicyDirection.class));
            for (PolicyDirection direction : NetworkPolicyTranslator.policyTypes(policy)) {
                byDirection.computeIfAbsent(direction, d -> new TreeSet<>()).addAll(rows.portGroups().getFirst().ports());
            }
        }
        isolated.forEach((namespace, byDirection) -> byDirection.forEach((direction, members) -> {
            AclLogging logging = loggingByNamespace.getOrDefault(namespace, AclLogging.OFF);
            List<Object> key = java.util.Arrays.asList("deny", namespace, direction);
            out.add(key, memo.get(key, java.util.Arrays.asList(members, logging),
                    () -> DefaultDeny.rows(snapshot.ownerController(), namespace, direction, members, logging)));
        }));
    }

    private static PolicyMetrics metrics(PolicySnapshot snapshot, Accumulator out) {
        Map<String, Map<String, Integer>> anpRules = new TreeMap<>();
        for (AdminNetworkPolicy anp : snapshot.adminNetworkPolicies()) {
            if (anp.getSpec() != null) {
                anp.getSpec().ingress().forEach(r -> count(anpRules, "Ingress", r.action()));
                anp.getSpec().egress().forEach(r -> count(anpRules, "Egress", r.action()));
            }
        }
        Map<String, Map<String, Integer>> banpRules = new TreeMap<>();
        for (BaselineAdminNetworkPolicy banp : snapshot.baselineAdminNetworkPolicies()) {
            if (banp.getSpec() != null) {
                banp.getSpec().ingress().forEach(r -> count(banpRules, "Ingress", r.action()));
                banp.getSpec().egress().forEach(r -> count(banpRules, "Egress", r.action()));
            }
        }
        return new PolicyMetrics(snapshot.adminNetworkPolicies().size(), snapshot.baselineAdminNetworkPolicies().size(),
                freeze(anpRules), freeze(banpRules), dbObjects(out, "AdminNetworkPolicy"), dbObjects(out, "BaselineAdminNetworkPolicy"));
    }

    private static void count(Map<String, Map<String, Integer>> counts, String direction, AdminNetworkPolicyRuleAction action) {
        String name = action == null ? "Deny" : action.apiName();
        counts.computeIfAbsent(direction, d -> new TreeMap<>()).merge(name, 1, Integer::sum);
    }

    private static Map<String, Map<String, Integer>> freeze(Map<String, Map<String, Integer>> counts) {
        Map<String, Map<String, Integer>> result = new TreeMap<>();
        counts.forEach((k, v) -> result.put(k, Map.copyOf(v)));
        return result;
    }

    private static Map<String, Integer> dbObjects(Accumulator out, String ownerType) {
        int[] counts = out.rowsByOwnerType.getOrDefault(ownerType, new int[2]);
        return Map.of("ACL", counts[0], "Address_Set", counts[1]);
    }

    /**
     * The {@link AdminPolicy} of each ANP/BANP object, kept while the object is: informers hand out
     * the same object until it changes, so its rules are the same objects and memo inputs compare
     * by identity.
     */
    private static final class AdminPolicies {
        private Map<Object, AdminPolicy> previous = new java.util.IdentityHashMap<>();
        private Map<Object, AdminPolicy> current = new java.util.IdentityHashMap<>();

        <T> AdminPolicy of(T policy, java.util.function.Function<T, AdminPolicy> shape) {
            AdminPolicy made = previous.get(policy);
            if (made == null) {
                made = shape.apply(policy);
            }
            current.put(policy, made);
            return made;
        }

        /** A new translation: objects not asked for since the last roll are let go. */
        void roll() {
            previous = current;
            current = new java.util.IdentityHashMap<>();
        }
    }

    /**
     * Collects rows; names and ids are unique by construction, so rows of one contribution never
     * replace another's. Kept from one translation to the next by an incremental memo: a contribution
     * (one policy's rows) that is the same object as last time costs nothing, a changed one swaps
     * its rows, and contributions not made again are removed at {@link #end}.
     */
    private static final class Accumulator {
        final TreeMap<String, DesiredPortGroup> portGroups = new TreeMap<>();
        final TreeMap<String, DesiredAddressSet> addressSets = new TreeMap<>();
        final TreeMap<String, DesiredAcl> acls = new TreeMap<>();
        final List<PolicyReport> reports = new ArrayList<>();
        /** ACLs and address sets by owner type (the policy's: all rows of one policy share it). */
        final Map<String, int[]> rowsByOwnerType = new HashMap<>();
        private final Map<Object, PolicyRows> contributions = new HashMap<>();
        private final java.util.Set<Object> made = new java.util.HashSet<>();
        /** Keys of the rows put or removed since {@link #begin}: what may differ from the previous translation. */
        final java.util.Set<String> touchedGroups = new java.util.HashSet<>();
        final java.util.Set<String> touchedSets = new java.util.HashSet<>();
        final java.util.Set<String> touchedAcls = new java.util.HashSet<>();
        private FrozenRows<DesiredPortGroup> frozenGroups;
        private FrozenRows<DesiredAddressSet> frozenSets;
        private FrozenRows<DesiredAcl> frozenAcls;

        void begin() {
            reports.clear();
            made.clear();
            touchedGroups.clear();
            touchedSets.clear();
            touchedAcls.clear();
        }

        void add(Object key, PolicyRows rows) {
            if (!made.add(key)) {
                throw new IllegalStateException("two contributions with key " + key);
            }
            PolicyRows before = contributions.put(key, rows);
            if (before != rows) {
                replace(before == null ? PolicyRows.NONE : before, rows);
            }
        }

        /** The port groups as of {@link #end}: last translation's copy when none was put or removed. */
        FrozenRows<DesiredPortGroup> frozenGroups() {
            return frozenGroups = touchedGroups.isEmpty() && frozenGroups != null ? frozenGroups : FrozenRows.of(portGroups);
        }

        FrozenRows<DesiredAddressSet> frozenSets() {
            return frozenSets = touchedSets.isEmpty() && frozenSets != null ? frozenSets : FrozenRows.of(addressSets);
        }

        FrozenRows<DesiredAcl> frozenAcls() {
            return frozenAcls = touchedAcls.isEmpty() && frozenAcls != null ? frozenAcls : FrozenRows.of(acls);
        }

        void end() {
            for (var it = contributions.entrySet().iterator(); it.hasNext();) {
                var e = it.next();
                if (!made.contains(e.getKey())) {
                    it.remove();
                    replace(e.getValue(), PolicyRows.NONE);
                }
            }
        }

        /** One contribution's rows swapped for its new ones; memoized rows (the same objects) stay put. */
        private void replace(PolicyRows before, PolicyRows after) {
            count(before, -1);
            count(after, 1);
            swap(portGroups, before.portGroups(), after.portGroups(), DesiredPortGroup::name, touchedGroups);
            swap(addressSets, before.addressSets(), after.addressSets(), DesiredAddressSet::name, touchedSets);
            swap(acls, before.acls(), after.acls(), DesiredAcl::id, touchedAcls);
        }

        private static <T> void swap(Map<String, T> rows, List<T> before, List<T> after, java.util.function.Function<T, String> id,
                                     java.util.Set<String> touched) {
            java.util.function.Function<T, String> key = row -> {
                String k = id.apply(row);
                touched.add(k);
                return k;
            };
            if (before.size() == after.size()) {
                // Usually the same rows in the same order with a few replaced: compare by position.
                // Removing every replaced row before putting its replacement also holds when a row
                // merely moved to another position.
                for (int i = 0; i < before.size(); i++) {
                    if (before.get(i) != after.get(i)) {
                        rows.remove(key.apply(before.get(i)), before.get(i));
                    }
                }
                for (int i = 0; i < after.size(); i++) {
                    if (before.get(i) != after.get(i)) {
                        rows.put(key.apply(after.get(i)), after.get(i));
                    }
                }
                return;
            }
            for (T row : before) {
                rows.remove(key.apply(row), row);
            }
            for (T row : after) {
                rows.put(key.apply(row), row);
            }
        }

        private void count(PolicyRows rows, int sign) {
            if (!rows.acls().isEmpty() || !rows.addressSets().isEmpty()) {
                Map<String, String> ids = rows.acls().isEmpty() ? rows.addressSets().getFirst().externalIds()
                        : rows.acls().getFirst().externalIds();
                int[] counts = rowsByOwnerType.computeIfAbsent(ids.get("k8s.ovn.org/owner-type"), t -> new int[2]);
                counts[0] += sign * rows.acls().size();
                counts[1] += sign * rows.addressSets().size();
            }
        }

        void report(PolicyReport report) {
            reports.add(report);
        }
    }
}
