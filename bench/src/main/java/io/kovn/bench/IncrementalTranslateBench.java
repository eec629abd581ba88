package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.policy.IncrementalTranslator;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedMap;

/**
 * The translation alone, at the policy benchmark's scale: a full {@link PolicyTranslator} run against
 * {@link IncrementalTranslator} after one pod relabel (the same relabels as {@code PolicyConvergenceBench}), with memo
 * hits and misses. Checks that both agree.
 *
 * <p>The first full translation runs on a cold JIT, as a controller's first reconcile does: it is reported apart from
 * the median of the others ({@code --full N} of them in all, default 5). {@code --incremental-first} runs the
 * incremental translator's first translation (which builds its index and memo, and computes the policies on every core)
 * before them instead, on the cold JIT, as a controller's first reconcile does. {@code --dual-stack} gives every pod an
 * IPv6 address next to its IPv4 one (a.b.c.d becomes {@code fd00:a:b::c:d}, in hex) and translates for both families:
 * every address set then has a v4 and a v6 row, patched apart on a relabel.
 *
 * <pre>
 * scripts/bench.sh IncrementalTranslateBench [--scale full|small] [--relabels N] [--full N] [--incremental-first] [--dual-stack]
 * </pre>
 */
public final class IncrementalTranslateBench {
    private IncrementalTranslateBench() {}

    public static void main(String[] args) {
        PolicyBenchCluster.Scale scale = PolicyBenchCluster.Scale.FULL;
        int relabels = 40;
        int fulls = 5;
        boolean incrementalFirst = Arrays.asList(args).contains("--incremental-first");
        boolean dualStack = Arrays.asList(args).contains("--dual-stack");
        args = Arrays.stream(args)
                .filter(a -> !a.equals("--incremental-first") && !a.equals("--dual-stack"))
                .toArray(String[]::new);
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scale" -> scale = PolicyBenchCluster.Scale.valueOf(args[i + 1].toUpperCase(Locale.ROOT));
                case "--relabels" -> relabels = Integer.parseInt(args[i + 1]);
                case "--full" -> fulls = Math.max(2, Integer.parseInt(args[i + 1]));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        PolicyBenchCluster cluster = PolicyBenchCluster.of(scale);
        PolicySnapshot base = cluster.snapshot();
        Set<IpFamily> families = dualStack ? Set.of(IpFamily.IPV4, IpFamily.IPV6) : Set.of(IpFamily.IPV4);
        Set<String> local = new HashSet<>();
        for (Pod p : cluster.localPods()) {
            local.add(PolicySnapshot.portName(
                    p.getMetadata().getNamespace(), p.getMetadata().getName()));
        }
        List<Pod> pods = new ArrayList<>(
                dualStack
                        ? base.pods().stream()
                                .map(IncrementalTranslateBench::withIpv6)
                                .toList()
                        : base.pods());
        IncrementalTranslator incremental = new IncrementalTranslator();
        long[] full = new long[fulls];
        DesiredPolicyState state = null;
        long first = -1;
        if (incrementalFirst) {
            long t = System.nanoTime();
            state = incremental.translate(snapshot(base, pods, local, null, families));
            first = System.nanoTime() - t;
        }
        for (int i = 0; i < full.length; i++) {
            long t = System.nanoTime();
            state = PolicyTranslator.translate(snapshot(base, pods, local, state, families));
            full[i] = System.nanoTime() - t;
        }
        long t;
        if (!incrementalFirst) {
            t = System.nanoTime();
            incremental.translate(snapshot(base, pods, local, state, families));
            first = System.nanoTime() - t;
        }
        long[] inc = new long[relabels];
        long misses = incremental.memo().misses();
        int[] relabelled = new int[2];
        long[][] changed = new long[2][3];
        for (int i = 0; i < relabels; i++) {
            int k = (i * 37) % pods.size();
            Pod pod = pods.get(k);
            String app = pod.getMetadata().getLabels().getOrDefault("app", "a0");
            String role = pod.getMetadata().getLabels().getOrDefault("role", "r0");
            pods.set(
                    k,
                    new PodBuilder(pod)
                            .editMetadata()
                            .addToLabels("app", "a" + (Integer.parseInt(app.substring(1)) + 1) % 5)
                            .addToLabels("role", "r" + (1 - Integer.parseInt(role.substring(1))))
                            .endMetadata()
                            .build());
            PolicySnapshot s = snapshot(base, pods, local, state, families);
            t = System.nanoTime();
            DesiredPolicyState out = incremental.translate(s);
            inc[i] = System.nanoTime() - t;
            int side = local.contains(PolicySnapshot.portName(
                            pod.getMetadata().getNamespace(), pod.getMetadata().getName()))
                    ? 0
                    : 1;
            relabelled[side]++;
            changed[side][0] += changedRows(state.portGroups(), out.portGroups());
            changed[side][1] += changedRows(state.addressSets(), out.addressSets());
            changed[side][2] += changedRows(state.acls(), out.acls());
            if (i % 10 == 0 && !out.equals(PolicyTranslator.translate(s))) {
                throw new IllegalStateException("incremental translation differs from the full one after relabel " + i);
            }
            state = out;
        }
        long cold = full[0];
        full = Arrays.copyOfRange(full, 1, full.length);
        Arrays.sort(full);
        Arrays.sort(inc);
        System.out.printf(
                "IncrementalTranslateBench --scale %s: %d pods, %d local, %s; %d address set rows%n",
                scale.name().toLowerCase(Locale.ROOT),
                pods.size(),
                local.size(),
                dualStack ? "dual stack" : "IPv4",
                state.addressSets().size());
        System.out.printf(
                "full translation: the first (%s) %.1f ms; median of the next %d: %.1f ms%n",
                incrementalFirst ? "after the incremental first" : "cold JIT",
                cold / 1e6,
                full.length,
                full[full.length / 2] / 1e6);
        System.out.printf(
                "incremental, first (builds index and memo%s): %.1f ms%n",
                incrementalFirst ? "; cold JIT" : "", first / 1e6);
        System.out.printf(
                "incremental after one relabel: p50 %.2f ms, p99 %.2f ms, max %.2f ms; %.1f memo misses per relabel;"
                        + " %d of %d by the pod-change path%n",
                inc[inc.length / 2] / 1e6,
                inc[Math.min(inc.length - 1, (int) Math.ceil(inc.length * 0.99) - 1)] / 1e6,
                inc[inc.length - 1] / 1e6,
                (incremental.memo().misses() - misses) / (double) relabels,
                incremental.quickTranslations(),
                relabels);
        for (int side = 0; side < 2; side++) {
            System.out.printf(
                    "rows changed per relabel of a pod %s (%d relabels): port groups %.1f, address sets %.1f, ACLs %.1f%n",
                    side == 0 ? "on the zone's node" : "on another node",
                    relabelled[side],
                    changed[side][0] / (double) Math.max(1, relabelled[side]),
                    changed[side][1] / (double) Math.max(1, relabelled[side]),
                    changed[side][2] / (double) Math.max(1, relabelled[side]));
        }
    }

    /** Rows added, removed or different between two translations of one table. */
    private static <T> long changedRows(SortedMap<String, T> before, SortedMap<String, T> after) {
        long n = before.keySet().stream().filter(k -> !after.containsKey(k)).count();
        for (var e : after.entrySet()) {
            if (!e.getValue().equals(before.get(e.getKey()))) {
                n++;
            }
        }
        return n;
    }

    /** The pod with an IPv6 address after its IPv4 one in {@code status.podIPs}. */
    private static Pod withIpv6(Pod pod) {
        String[] octets = pod.getStatus().getPodIP().split("\\.");
        String v6 = "fd00:" + Integer.toHexString(Integer.parseInt(octets[0])) + ":"
                + Integer.toHexString(Integer.parseInt(octets[1])) + "::"
                + Integer.toHexString(Integer.parseInt(octets[2])) + ":"
                + Integer.toHexString(Integer.parseInt(octets[3]));
        return new PodBuilder(pod)
                .editStatus()
                .addNewPodIP()
                .withIp(v6)
                .endPodIP()
                .endStatus()
                .build();
    }

    private static PolicySnapshot snapshot(
            PolicySnapshot base,
            List<Pod> pods,
            Set<String> local,
            DesiredPolicyState previous,
            Set<IpFamily> families) {
        return PolicySnapshot.builder(base.zone())
                .ipFamilies(families)
                .namespaces(base.namespaces())
                .pods(pods)
                .nodes(base.nodes())
                .networkPolicies(base.networkPolicies())
                .adminNetworkPolicies(base.adminNetworkPolicies())
                .baselineAdminNetworkPolicies(base.baselineAdminNetworkPolicies())
                .localPorts(local)
                .previousPriorities(previous == null ? null : previous.priorities())
                .build();
    }
}
