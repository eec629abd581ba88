package io.kovn.policy;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.admin.AdminPolicy;
import io.kovn.policy.admin.AdminPolicyTranslator;
import io.kovn.policy.admin.AnpPriorities;
import io.kovn.policy.admin.ClusterNetworkPolicyChecks;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.model.ChangedRows;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.FrozenSortedSet;
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
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;

/**
 * The network policy model: {@link PolicySnapshot} in, {@link DesiredPolicyState} out. A pure function; the zone
 * controller diffs its output against the northbound database by ownership and writes the difference in one
 * transaction, then publishes the reports.
 *
 * <p>Callers keep {@link DesiredPolicyState#priorities()} and pass it back as
 * {@link PolicySnapshot#previousPriorities()} so that tier-1 ACL priorities stay put across translations; at start they
 * recover it from the database with {@link AnpPriorities#recover}.
 *
 * <p>Precedence is carried by ACL tiers: AdminNetworkPolicy in tier 1 (allow-related / drop / pass), NetworkPolicy in
 * tier 2 (allow-related at 1001 over a per-namespace drop at 1000), the BaselineAdminNetworkPolicy in tier 3. Traffic
 * that no ACL decides is allowed.
 */
public final class PolicyTranslator {
    /** Tier of AdminNetworkPolicy ACLs. */
    public static final int ANP_TIER = 1;
    /** Tier of BaselineAdminNetworkPolicy ACLs. */
    public static final int BANP_TIER = 3;

    private PolicyTranslator() {}

    /** Translates the snapshot into the desired rows, reports, priority assignment and metrics. */
    public static DesiredPolicyState translate(PolicySnapshot snapshot) {
        return translate(
                snapshot,
                new ClusterIndex(snapshot.namespaces(), snapshot.pods(), snapshot.nodes()),
                TranslationMemo.none());
    }

    /**
     * The same translation, over an index that holds exactly the snapshot's namespaces, pods and nodes, reusing from
     * {@code memo} the rules and policies whose inputs did not change ({@link IncrementalTranslator} keeps both between
     * translations).
     */
    static DesiredPolicyState translate(PolicySnapshot snapshot, ClusterIndex index, TranslationMemo memo) {
        Accumulator out = memo.kept(Accumulator.class, Accumulator::new);
        out.begin();
        TranslationPlan plan = memo.kept(TranslationPlan.class, TranslationPlan::new);
        plan.clear();
        Map<SpecKey, Object> specs = new HashMap<>();
        snapshot.adminNetworkPolicies()
                .forEach(a -> specs.put(
                        new SpecKey(
                                OwnerType.ADMIN_NETWORK_POLICY, a.getMetadata().getName()),
                        a.getSpec()));
        snapshot.baselineAdminNetworkPolicies()
                .forEach(b -> specs.put(
                        new SpecKey(
                                OwnerType.BASELINE_ADMIN_NETWORK_POLICY,
                                b.getMetadata().getName()),
                        b.getSpec()));
        snapshot.clusterNetworkPolicies()
                .forEach(c -> specs.put(
                        new SpecKey(
                                OwnerType.CLUSTER_NETWORK_POLICY,
                                c.getMetadata().getName()),
                        c.getSpec()));

        AdminPolicyTranslator admin = new AdminPolicyTranslator(
                index, snapshot.localPorts(), snapshot.ipFamilies(), snapshot.ownerController());
        AdminPolicies shapes = memo.kept(AdminPolicies.class, AdminPolicies::new);
        shapes.roll();
        AdminStep step = new AdminStep(admin, specs, plan, memo, out);
        List<AdminPolicy> cnps = new ArrayList<>();
        for (ClusterNetworkPolicy cnp : snapshot.clusterNetworkPolicies()) {
            Optional<String> invalid = ClusterNetworkPolicyChecks.invalid(cnp);
            if (invalid.isPresent()) {
                out.report(new PolicyReport(
                        PolicyRef.cnp(cnp.getMetadata().getName()), List.of(), Optional.of(invalid.get())));
            } else {
                cnps.add(shapes.of(cnp, AdminPolicy::of));
            }
        }
        // tier 1: ANPs and Admin-tier CNPs in one order (AdminPolicy.precedence: at equal spec.priority the ANPs first)
        List<AdminPolicy> tier1 = new ArrayList<>();
        snapshot.adminNetworkPolicies().stream()
                .filter(a -> a.getSpec() != null)
                .forEach(a -> tier1.add(shapes.of(a, AdminPolicy::of)));
        cnps.stream().filter(c -> c.aclTier() == ANP_TIER).forEach(tier1::add);
        tier1.sort(Comparator.comparingInt(AdminPolicy::precedence).thenComparing(AdminPolicy::name));
        TreeMap<Integer, Integer> sizes = new TreeMap<>();
        Map<Integer, List<String>> byPrecedence = new TreeMap<>();
        for (AdminPolicy policy : tier1) {
            sizes.merge(policy.precedence(), policy.priorityBandSize(), Math::max);
            byPrecedence
                    .computeIfAbsent(policy.precedence(), p -> new ArrayList<>())
                    .add(policy.name());
        }
        AnpPriorities.Result priorities = AnpPriorities.assignTier1(sizes, snapshot.previousPriorities());
        for (AdminPolicy policy : tier1) {
            List<PolicyWarning> extra = new ArrayList<>();
            int key = policy.precedence();
            duplicate(policy, byPrecedence.get(key)).ifPresent(extra::add);
            if (priorities.unplaced().contains(key)) {
                String error = "cannot fit the rules of priority " + policy.specPriority()
                        + " into tier 1's ACL priority space; the policy is not programmed";
                extra.add(new PolicyWarning(PolicyWarning.CANNOT_FIT, error));
                out.report(new PolicyReport(policy.ref(), extra, Optional.of(error)));
                continue;
            }
            List<Integer> band = new ArrayList<>();
            for (int i = 0; i < policy.priorityBandSize(); i++) {
                band.add(priorities.aclPriority(key, i));
            }
            step.translate(policy, i -> priorities.aclPriority(key, i), ANP_TIER, band, extra);
        }

        // tier 3: Baseline-tier CNPs by spec.priority, then the BANP (AdminPolicy.precedence)
        List<AdminPolicy> tier3 = new ArrayList<>();
        Map<Integer, List<String>> baselineByPriority = new TreeMap<>();
        for (AdminPolicy cnp : cnps) {
            if (cnp.aclTier() == BANP_TIER) {
                tier3.add(cnp);
                baselineByPriority
                        .computeIfAbsent(cnp.specPriority(), p -> new ArrayList<>())
                        .add(cnp.name());
            }
        }
        snapshot.baselineAdminNetworkPolicies().stream()
                .filter(b -> b.getSpec() != null)
                .forEach(b -> tier3.add(shapes.of(b, AdminPolicy::of)));
        tier3.sort(Comparator.comparingInt(AdminPolicy::precedence).thenComparing(AdminPolicy::name));
        for (AdminPolicy policy : tier3) {
            if (policy.isClusterNetworkPolicy()) {
                List<PolicyWarning> extra = new ArrayList<>();
                duplicate(policy, baselineByPriority.get(policy.specPriority())).ifPresent(extra::add);
                if (policy.priorityBandSize() > AnpPriorities.CNP_BAND) {
                    String error = "more than " + AnpPriorities.CNP_BAND
                            + " rules in one direction do not fit tier 3's band; the policy is not programmed";
                    extra.add(new PolicyWarning(PolicyWarning.CANNOT_FIT, error));
                    out.report(new PolicyReport(policy.ref(), extra, Optional.of(error)));
                    continue;
                }
                int spec = policy.specPriority();
                step.translate(
                        policy, i -> AnpPriorities.baselineCnpPriority(spec, i), BANP_TIER, List.of(spec), extra);
                continue;
            }
            if (!BaselineAdminNetworkPolicy.SINGLETON_NAME.equals(policy.name())) {
                String error = "only the BaselineAdminNetworkPolicy named \"default\" is applied";
                out.report(new PolicyReport(policy.ref(), List.of(), Optional.of(error)));
                continue;
            }
            step.translate(policy, i -> AnpPriorities.BANP_TOP - i, BANP_TIER, List.of(), new ArrayList<>());
        }

        translateNetworkPolicies(snapshot, index, memo, out, plan);
        out.end();
        plan.finish();
        PolicyMetrics metrics = metrics(snapshot, out);
        return new DesiredPolicyState(
                out.frozenGroups(), out.frozenSets(), out.frozenAcls(), out.reports, priorities.assignment(), metrics);
    }

    /** An ANP, BANP or CNP by its kind and name: the key of its spec in the snapshot. */
    private record SpecKey(OwnerType kind, String name) {}

    /** Translates one ANP, BANP or CNP with its ACL priorities, memoized, into {@code out} with its report. */
    private record AdminStep(
            AdminPolicyTranslator admin,
            Map<SpecKey, Object> specs,
            TranslationPlan plan,
            TranslationMemo memo,
            Accumulator out) {
        void translate(
                AdminPolicy policy,
                IntUnaryOperator aclPriority,
                int tier,
                List<Integer> band,
                List<PolicyWarning> extra) {
            List<Object> key = Arrays.asList(kindKey(policy), policy.name());
            // AdminPolicy is a function of the object's spec and annotations: the informer's spec
            // instance is the same until it changes, so this compares in O(1) when nothing did
            TranslationPlan.Admin made = plan.admin(
                    key,
                    policy,
                    aclPriority,
                    tier,
                    Arrays.asList(
                            specs.get(new SpecKey(policy.ownerType(), policy.name())), policy.annotations(), band));
            PolicyRows rows =
                    memo.get(made.key(), made.inputs(), () -> admin.policyRows(policy, made.aclPriority(), tier, memo));
            out.add(made.key(), rows);
            addRuleSets(admin, policy, memo, out);
            extra.addAll(rows.warnings());
            out.report(new PolicyReport(policy.ref(), extra, Optional.empty()));
        }

        private static String kindKey(AdminPolicy policy) {
            return switch (policy.ownerType()) {
                case ADMIN_NETWORK_POLICY -> "anp";
                case CLUSTER_NETWORK_POLICY -> "cnp";
                default -> "banp";
            };
        }
    }

    /** The warning that {@code policy} shares its precedence with others (names: all of that precedence), if so. */
    private static Optional<PolicyWarning> duplicate(AdminPolicy policy, List<String> names) {
        List<String> peers =
                names.stream().filter(n -> !n.equals(policy.name())).toList();
        if (peers.isEmpty()) {
            return Optional.empty();
        }
        if (policy.isClusterNetworkPolicy()) {
            return Optional.of(new PolicyWarning(
                    PolicyWarning.CNP_DUPLICATE_PRIORITY,
                    "This policy has the same tier and priority " + policy.specPriority() + " as "
                            + String.join(", ", peers) + "; all are applied, their relative order is undefined"));
        }
        return Optional.of(new PolicyWarning(
                PolicyWarning.DUPLICATE_PRIORITY,
                "This policy has the same priority " + policy.specPriority() + " as " + String.join(", ", peers)
                        + "; all are applied, their relative order is undefined"));
    }

    /**
     * Each rule's address sets as a contribution of its own: a pod moving between a rule's peers swaps that rule's sets
     * and leaves the policy's port group and ACLs untouched.
     */
    private static void addRuleSets(
            AdminPolicyTranslator admin, AdminPolicy policy, TranslationMemo memo, Accumulator out) {
        for (AdminPolicy.Rule rule : policy.rules()) {
            out.add(AdminPolicyTranslator.ruleSetsKey(policy, rule), admin.ruleSets(policy, rule, memo));
        }
    }

    /**
     * The rows a translation over {@code memo} put or removed (by key), compared with the translation over the same
     * memo before it.
     */
    static ChangedRows touched(TranslationMemo memo) {
        Accumulator out = memo.kept(Accumulator.class, Accumulator::new);
        return new ChangedRows(out.touchedGroups, out.touchedSets, out.touchedAcls);
    }

    private static void translateNetworkPolicies(
            PolicySnapshot snapshot, ClusterIndex index, TranslationMemo memo, Accumulator out, TranslationPlan plan) {
        NetworkPolicyTranslator np = new NetworkPolicyTranslator(
                index, snapshot.localPorts(), snapshot.ipFamilies(), snapshot.ownerController());
        Map<String, List<NetworkPolicy>> byNamespace = new TreeMap<>();
        snapshot.networkPolicies().stream()
                .filter(p -> p.getSpec() != null)
                .sorted(Comparator.comparing(
                                (NetworkPolicy p) -> p.getMetadata().getNamespace())
                        .thenComparing(p -> p.getMetadata().getName()))
                .forEach(p -> byNamespace
                        .computeIfAbsent(p.getMetadata().getNamespace(), k -> new ArrayList<>())
                        .add(p));
        Map<String, AclLogging> loggingByNamespace = new HashMap<>();
        for (var ns : snapshot.namespaces()) {
            loggingByNamespace.put(
                    ns.getMetadata().getName(),
                    AclLogging.fromAnnotations(ns.getMetadata().getAnnotations()));
        }
        byNamespace.forEach((namespace, policies) -> namespaceRows(
                snapshot.ownerController(),
                namespace,
                policies,
                loggingByNamespace.getOrDefault(namespace, AclLogging.OFF),
                np,
                memo,
                (key, rows, policy) -> {
                    out.add(key, rows);
                    if (policy != null && !rows.warnings().isEmpty()) {
                        out.report(new PolicyReport(
                                PolicyRef.networkPolicy(
                                        namespace, policy.getMetadata().getName()),
                                rows.warnings(),
                                Optional.empty()));
                    }
                }));
        plan.networkPolicies.putAll(byNamespace);
        plan.namespaceLogging.putAll(loggingByNamespace);
    }

    /**
     * Receives a contribution: its key, its rows, and the NetworkPolicy it comes from ({@code null} for a default
     * deny).
     */
    @FunctionalInterface
    interface NamespaceSink {
        void accept(List<Object> key, PolicyRows rows, NetworkPolicy policy);
    }

    /**
     * The rows of one namespace's NetworkPolicies (in name order) and of its default denies: each policy's port group
     * holds its selected local pods, exactly the pods it isolates here.
     */
    static void namespaceRows(
            String ownerController,
            String namespace,
            List<NetworkPolicy> policies,
            AclLogging logging,
            NetworkPolicyTranslator np,
            TranslationMemo memo,
            NamespaceSink sink) {
        Map<PolicyDirection, List<DesiredPortGroup>> isolated = new EnumMap<>(PolicyDirection.class);
        for (NetworkPolicy policy : policies) {
            List<Object> key =
                    Arrays.asList("np", namespace, policy.getMetadata().getName());
            PolicyRows rows =
                    memo.get(key, Arrays.asList(policy.getSpec(), logging), () -> np.translate(policy, logging));
            sink.accept(key, rows, policy);
            for (PolicyDirection direction : NetworkPolicyTranslator.policyTypes(policy)) {
                isolated.computeIfAbsent(direction, d -> new ArrayList<>())
                        .add(rows.portGroups().getFirst());
            }
        }
        isolated.forEach((direction, groups) -> {
            // the union is made again only when one of the namespace's port groups changed
            SortedSet<String> members =
                    memo.get(Arrays.asList("isolated", namespace, direction), groups, () -> isolatedPorts(groups));
            List<Object> key = Arrays.asList("deny", namespace, direction);
            sink.accept(
                    key,
                    memo.get(
                            key,
                            Arrays.asList(members, logging),
                            () -> DefaultDeny.rows(ownerController, namespace, direction, members, logging)),
                    null);
        });
    }

    /** The local ports the port groups of a namespace's NetworkPolicies hold: the pods they isolate. */
    private static SortedSet<String> isolatedPorts(List<DesiredPortGroup> groups) {
        TreeSet<String> members = new TreeSet<>();
        groups.forEach(g -> members.addAll(g.ports()));
        return FrozenSortedSet.of(members);
    }

    static PolicyMetrics metrics(PolicySnapshot snapshot, Accumulator out) {
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
        return new PolicyMetrics(
                snapshot.adminNetworkPolicies().size(),
                snapshot.baselineAdminNetworkPolicies().size(),
                freeze(anpRules),
                freeze(banpRules),
                dbObjects(out, "AdminNetworkPolicy"),
                dbObjects(out, "BaselineAdminNetworkPolicy"));
    }

    private static void count(
            Map<String, Map<String, Integer>> counts, String direction, AdminNetworkPolicyRuleAction action) {
        String name = action == null ? "Deny" : action.apiName();
        counts.computeIfAbsent(direction, d -> new TreeMap<>()).merge(name, 1, Integer::sum);
    }

    private static Map<String, Map<String, Integer>> freeze(Map<String, Map<String, Integer>> counts) {
        Map<String, Map<String, Integer>> result = new TreeMap<>();
        counts.forEach((k, v) -> result.put(k, Map.copyOf(v)));
        return result;
    }

    /**
     * {@link #metrics} when no ANP or BANP changed since {@code previous}: its rule counts, and the row counts of
     * {@code out} (pods can make named-port ACLs appear or go).
     */
    static PolicyMetrics metricsWithRulesOf(PolicyMetrics previous, Accumulator out) {
        return new PolicyMetrics(
                previous.adminNetworkPolicies(),
                previous.baselineAdminNetworkPolicies(),
                previous.anpRules(),
                previous.banpRules(),
                dbObjects(out, "AdminNetworkPolicy"),
                dbObjects(out, "BaselineAdminNetworkPolicy"));
    }

    private static Map<String, Integer> dbObjects(Accumulator out, String ownerType) {
        int[] counts = out.rowsByOwnerType.getOrDefault(ownerType, new int[2]);
        return Map.of("ACL", counts[0], "Address_Set", counts[1]);
    }

    /**
     * The {@link AdminPolicy} of each ANP/BANP object, kept while the object is: informers hand out the same object
     * until it changes, so its rules are the same objects and memo inputs compare by identity.
     */
    private static final class AdminPolicies {
        private Map<Object, AdminPolicy> previous = new IdentityHashMap<>();
        private Map<Object, AdminPolicy> current = new IdentityHashMap<>();

        <T> AdminPolicy of(T policy, Function<T, AdminPolicy> shape) {
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
            current = new IdentityHashMap<>();
        }
    }
}
