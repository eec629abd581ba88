package io.kovn.policy.evaluator;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.policy.admin.AdminPolicy;
import io.kovn.policy.admin.AnpPriorities;
import io.kovn.policy.admin.ClusterNetworkPolicyChecks;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.netpol.NetworkPolicyTranslator;
import io.kovn.policy.select.ClusterIndex;
import io.kovn.policy.select.PodInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compiles a {@link PolicySnapshot} into a {@link CompiledSnapshot}: every rule once, and per pod and direction the
 * rules it is a subject of, in evaluation order (ANPs and Admin-tier CNPs by {@link AdminPolicy#precedence()} then
 * name, rules in list order; NetworkPolicies by namespace/name; Baseline-tier CNPs by precedence, then BANPs by name).
 * Pure.
 */
final class SnapshotCompiler {
    private static final int DIRECTIONS = PolicyDirection.values().length;

    private final PodTable pods;
    private final List<CompiledRule> rules = new ArrayList<>();
    /** [tier][direction][pod] → rule ids. */
    private final List<List<List<List<Integer>>>> perPod = new ArrayList<>();
    /** [direction][pod] → isolating policy indices. */
    private final List<List<List<Integer>>> isolating = new ArrayList<>();

    private final Map<List<Integer>, int[]> interned = new HashMap<>();

    private SnapshotCompiler(PodTable pods) {
        this.pods = pods;
        for (int t = 0; t < Tier.values().length; t++) {
            perPod.add(emptyLists());
        }
        for (int d = 0; d < DIRECTIONS; d++) {
            isolating.add(emptyPodLists());
        }
    }

    static CompiledSnapshot compile(PolicySnapshot snapshot) {
        ClusterIndex index = new ClusterIndex(snapshot.namespaces(), snapshot.pods(), snapshot.nodes());
        SnapshotCompiler compiler = new SnapshotCompiler(new PodTable(index));
        AdminRules admin = new AdminRules(compiler.pods);
        List<AdminPolicy> cnps = snapshot.clusterNetworkPolicies().stream()
                .filter(c -> ClusterNetworkPolicyChecks.invalid(c).isEmpty())
                .map(AdminPolicy::of)
                .toList();
        List<AdminPolicy> tier1 = new ArrayList<>();
        snapshot.adminNetworkPolicies().stream()
                .filter(a -> a.getSpec() != null)
                .forEach(a -> tier1.add(AdminPolicy.of(a)));
        cnps.stream().filter(c -> c.aclTier() == AdminPolicy.ADMIN_TIER).forEach(tier1::add);
        compiler.addAdmin(Tier.ADMIN, admin, ordered(tier1));
        List<AdminPolicy> tier3 = new ArrayList<>();
        // the translation programs no Baseline-tier CNP with more rules than its band holds
        cnps.stream()
                .filter(c -> c.aclTier() == AdminPolicy.BASELINE_TIER && c.priorityBandSize() <= AnpPriorities.CNP_BAND)
                .forEach(tier3::add);
        snapshot.baselineAdminNetworkPolicies().stream()
                .filter(b -> b.getSpec() != null)
                .forEach(b -> tier3.add(AdminPolicy.of(b)));
        compiler.addAdmin(Tier.BASELINE, admin, ordered(tier3));
        List<NetworkPolicy> networkPolicies = snapshot.networkPolicies().stream()
                .filter(p -> p.getSpec() != null)
                .sorted(Comparator.comparing(NetworkPolicyRules::name))
                .toList();
        compiler.addNetworkPolicies(new NetworkPolicyRules(compiler.pods), networkPolicies);
        return compiler.build(
                index, networkPolicies.stream().map(NetworkPolicyRules::name).toList());
    }

    /** kovn's one order of a tier's policies: {@link AdminPolicy#precedence()}, then name. */
    private static List<AdminPolicy> ordered(List<AdminPolicy> policies) {
        return policies.stream()
                .sorted(Comparator.comparingInt(AdminPolicy::precedence).thenComparing(AdminPolicy::name))
                .toList();
    }

    /**
     * Rules of policies sharing a precedence (ANPs of one spec.priority; CNPs of one tier and spec.priority) are
     * interleaved by rule index, as in OVN where rule {@code i} of each gets the same ACL priority; the API leaves
     * their order undefined, and name order breaks the remaining tie.
     */
    private void addAdmin(Tier tier, AdminRules admin, List<AdminPolicy> policies) {
        Map<Integer, List<AdminPolicy>> byPriority = new TreeMap<>();
        for (AdminPolicy policy : policies) {
            byPriority
                    .computeIfAbsent(policy.precedence(), p -> new ArrayList<>())
                    .add(policy);
        }
        for (List<AdminPolicy> group : byPriority.values()) {
            List<int[]> subjects =
                    group.stream().map(p -> members(admin.subject(p.subject()))).toList();
            int longest =
                    group.stream().mapToInt(AdminPolicy::priorityBandSize).max().orElse(0);
            for (int index = 0; index < longest; index++) {
                for (int g = 0; g < group.size(); g++) {
                    for (AdminPolicy.Rule rule : group.get(g).rules()) {
                        if (rule.index() != index) {
                            continue;
                        }
                        CompiledRule compiled = admin.compile(rules.size(), tier, group.get(g), rule);
                        rules.add(compiled);
                        List<List<Integer>> lists =
                                perPod.get(tier.ordinal()).get(rule.direction().ordinal());
                        for (int pod : subjects.get(g)) {
                            lists.get(pod).add(compiled.id);
                        }
                    }
                }
            }
        }
    }

    private void addNetworkPolicies(NetworkPolicyRules compilerOfRules, List<NetworkPolicy> policies) {
        for (int p = 0; p < policies.size(); p++) {
            NetworkPolicy policy = policies.get(p);
            int[] selected = members(compilerOfRules.selected(policy));
            var spec = policy.getSpec();
            for (PolicyDirection direction : NetworkPolicyTranslator.policyTypes(policy)) {
                for (int pod : selected) {
                    isolating.get(direction.ordinal()).get(pod).add(p);
                }
                List<CompiledRule> compiled = new ArrayList<>();
                if (direction == PolicyDirection.INGRESS && spec.getIngress() != null) {
                    for (int i = 0; i < spec.getIngress().size(); i++) {
                        var r = spec.getIngress().get(i);
                        compiled.add(compilerOfRules.compile(
                                rules.size() + compiled.size(), policy, direction, i, r.getFrom(), r.getPorts()));
                    }
                } else if (direction == PolicyDirection.EGRESS && spec.getEgress() != null) {
                    for (int i = 0; i < spec.getEgress().size(); i++) {
                        var r = spec.getEgress().get(i);
                        compiled.add(compilerOfRules.compile(
                                rules.size() + compiled.size(), policy, direction, i, r.getTo(), r.getPorts()));
                    }
                }
                rules.addAll(compiled);
                List<List<Integer>> lists =
                        perPod.get(Tier.NETWORK_POLICY.ordinal()).get(direction.ordinal());
                for (int pod : selected) {
                    for (CompiledRule rule : compiled) {
                        lists.get(pod).add(rule.id);
                    }
                }
            }
        }
    }

    private CompiledSnapshot build(ClusterIndex index, List<String> networkPolicyNames) {
        int n = pods.size();
        String[] labels = new String[n];
        IpAddress[] ips = new IpAddress[n];
        Map<IpAddress, Integer> byIp = new HashMap<>();
        for (int i = 0; i < n; i++) {
            PodInfo pod = pods.pods.get(i);
            labels[i] = pod.namespace() + "/" + pod.name();
            ips[i] = pods.ips[i].length == 0 ? null : pods.ips[i][0];
            for (IpAddress ip : pods.ips[i]) {
                byIp.putIfAbsent(ip, i);
            }
        }
        Map<String, String> hostNetwork = new HashMap<>();
        for (List<PodInfo> list : index.podsByNamespace().values()) {
            for (PodInfo pod : list) {
                if (pod.hostNetwork()) {
                    hostNetwork.put(
                            pod.namespace() + "/" + pod.name(),
                            pod.ips().isEmpty() ? "" : pod.ips().getFirst());
                }
            }
        }
        int[][][] named = pods.namedPorts();
        int[][][][] tiers = new int[Tier.values().length][][][];
        for (Tier tier : Tier.values()) {
            tiers[tier.ordinal()] = arrays(perPod.get(tier.ordinal()));
        }
        return new CompiledSnapshot(
                labels,
                ips,
                pods.indexByName,
                byIp,
                hostNetwork,
                named[0],
                named[1],
                named[2],
                rules.toArray(CompiledRule[]::new),
                tiers[Tier.ADMIN.ordinal()],
                tiers[Tier.NETWORK_POLICY.ordinal()],
                tiers[Tier.BASELINE.ordinal()],
                arrays(isolating),
                networkPolicyNames);
    }

    /** [direction][pod] lists to arrays; equal arrays are shared, which keeps hot data small. */
    private int[][][] arrays(List<List<List<Integer>>> byDirection) {
        int[][][] out = new int[DIRECTIONS][][];
        for (int d = 0; d < DIRECTIONS; d++) {
            List<List<Integer>> lists = byDirection.get(d);
            out[d] = new int[lists.size()][];
            for (int pod = 0; pod < lists.size(); pod++) {
                out[d][pod] = interned.computeIfAbsent(
                        lists.get(pod),
                        l -> l.stream().mapToInt(Integer::intValue).toArray());
            }
        }
        return out;
    }

    private int[] members(long[] bits) {
        int[] out = new int[pods.size()];
        int count = 0;
        for (int i = 0; i < pods.size(); i++) {
            if (Bits.get(bits, i)) {
                out[count++] = i;
            }
        }
        return Arrays.copyOf(out, count);
    }

    private List<List<List<Integer>>> emptyLists() {
        List<List<List<Integer>>> byDirection = new ArrayList<>();
        for (int d = 0; d < DIRECTIONS; d++) {
            byDirection.add(emptyPodLists());
        }
        return byDirection;
    }

    private List<List<Integer>> emptyPodLists() {
        List<List<Integer>> lists = new ArrayList<>(pods.size());
        for (int i = 0; i < pods.size(); i++) {
            lists.add(new ArrayList<>());
        }
        return lists;
    }
}
