package io.kovn.bench;

import static io.kovn.bench.BenchStats.ms;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.policy.PolicyController;
import io.kovn.controller.policy.PolicyControllerConfig;
import io.kovn.controller.zone.ZoneController;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ClusterNetworkPolicies at issue 5's scale against AdminNetworkPolicies, in the same run: {@link PolicyBenchCluster}'s
 * namespaces, pods and NetworkPolicies on a real kube-apiserver ({@link ApiServer}), then in turn its 100 ANPs × 20
 * rules and BANP, and 100 Admin-tier CNPs × 20 rules and 10 Baseline-tier CNPs ({@link BenchClusterNetworkPolicies}).
 * For each: a fresh NB {@code ovsdb-server} with the zone's switch ports, {@link PolicyController#start} → a bystander
 * (northd's stand-in, a child JVM) sees every final policy row, against the same rows loaded raw in one transaction
 * with the same bystander (median of three): the ratio is what the controller adds; then a restart with nothing changed
 * (0 writes expected). Rounds alternate the order of the two kinds.
 *
 * <pre>
 * scripts/bench.sh ClusterNetworkPolicyConvergenceBench [--scale full|small] [--rounds N]
 * </pre>
 */
public final class ClusterNetworkPolicyConvergenceBench {
    private ClusterNetworkPolicyConvergenceBench() {}

    /** One kind's figures in one round. */
    record Result(
            String kind,
            Map<String, Integer> rows,
            long memberships,
            long enforceNs,
            long convergeNs,
            long rawNs,
            long restartWrites,
            long restartTransactions) {
        double ratio() {
            return (double) enforceNs / rawNs;
        }
    }

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        PolicyBenchCluster.Scale scale = PolicyBenchCluster.Scale.FULL;
        int rounds = 1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scale" -> scale = PolicyBenchCluster.Scale.valueOf(args[i + 1].toUpperCase(Locale.ROOT));
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String loadBefore = BenchStats.loadAverage();
        long started = System.nanoTime();
        PolicyBenchCluster cluster = PolicyBenchCluster.of(scale);
        List<HasMetadata> anps = new ArrayList<>(cluster.anps());
        anps.addAll(cluster.banps());
        List<HasMetadata> cnps = new ArrayList<>(BenchClusterNetworkPolicies.of(scale.anps));
        PolicyBenchCluster base = new PolicyBenchCluster(
                cluster.namespaces(), cluster.nodes(), cluster.pods(), cluster.networkPolicies(), List.of(), List.of());
        System.out.printf(
                "cluster (%s): %d namespaces, %d pods (%d on the zone's node), %d NetworkPolicies; ANP set: %d ANPs + %d"
                        + " BANP; CNP set: %d Admin-tier + %d Baseline-tier; load average %s%n",
                scale,
                cluster.namespaces().size(),
                cluster.pods().size(),
                cluster.localPods().size(),
                cluster.networkPolicies().size(),
                cluster.anps().size(),
                cluster.banps().size(),
                scale.anps,
                BenchClusterNetworkPolicies.BASELINES,
                loadBefore);
        List<Result> results = new ArrayList<>();
        try (ApiServer api = ApiServer.start();
                KubernetesClient client = api.newClient()) {
            base.create(client);
            for (int round = 0; round < rounds; round++) {
                boolean anpFirst = round % 2 == 0;
                for (String kind : anpFirst ? List.of("ANP", "CNP") : List.of("CNP", "ANP")) {
                    List<HasMetadata> policies = kind.equals("ANP") ? anps : cnps;
                    policies.forEach(p -> client.resource(p).create());
                    Result r = measure(kind, cluster.localPods().size(), client);
                    results.add(r);
                    System.out.printf(
                            "round %d %s: rows %s, %,d memberships; NB enforcing %,.0f ms, converged %,.0f ms; raw %,.0f"
                                    + " ms; ratio %.2fx; restart %d transactions, %d writes%n",
                            round + 1,
                            kind,
                            r.rows(),
                            r.memberships(),
                            ms(r.enforceNs()),
                            ms(r.convergeNs()),
                            ms(r.rawNs()),
                            r.ratio(),
                            r.restartTransactions(),
                            r.restartWrites());
                    delete(client, policies);
                }
            }
        }
        print(results, scale, loadBefore, (System.nanoTime() - started) / 1e9);
        System.exit(0);
    }

    /** Deletes the policies and waits until the API server has none of their kinds left. */
    private static void delete(KubernetesClient client, List<HasMetadata> policies) throws InterruptedException {
        policies.forEach(p -> client.resource(p).delete());
        BenchStats.waitFor(
                () -> client.resources(AdminNetworkPolicy.class)
                                .list()
                                .getItems()
                                .isEmpty()
                        && client.resources(BaselineAdminNetworkPolicy.class)
                                .list()
                                .getItems()
                                .isEmpty()
                        && client.resources(ClusterNetworkPolicy.class)
                                .list()
                                .getItems()
                                .isEmpty(),
                120_000);
    }

    /** One kind: a fresh NB and zone, the convergence, the raw baseline, a restart. */
    private static Result measure(String kind, int localPods, KubernetesClient client) throws Exception {
        try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                SharedInformers informers = new SharedInformers(client)) {
            ZoneController zone = PolicyZoneHarness.startZone(db, informers, localPods);
            PolicyControllerConfig config =
                    PolicyControllerConfig.of(PolicyBenchCluster.ZONE, db.nb().unixEndpoint());
            PolicyController policies;
            Map<String, Integer> rows;
            long memberships;
            long enforceNs;
            long convergeNs;
            try (Bystander bystander = Bystander.connect(
                    Bystander.Mode.PROCESS, Bystander.Watch.POLICY, db.nb().unixEndpoint())) {
                bystander.recordPolicyRows();
                long t0 = System.nanoTime();
                policies = PolicyController.start(config, informers);
                BenchStats.waitFor(() -> policies.reconciler().reconciles() > 0 && policies.idle(), 300_000);
                convergeNs = System.nanoTime() - t0;
                BenchStats.waitQuiet(policies::idle, 200, 60_000);
                rows = RawBaseline.rowCounts(policies.northbound().cache(), ObjectId.DEFAULT_CONTROLLER);
                memberships = RawBaseline.memberships(policies.northbound().cache(), ObjectId.DEFAULT_CONTROLLER);
                enforceNs =
                        bystander.firstArrivalWith(new NorthboundObserver.PolicyRows(rows, memberships), 60_000) - t0;
            }
            RawBaseline.Load raw = PolicyZoneHarness.rawWatched(
                            policies.northbound().cache(), Bystander.Mode.PROCESS, Bystander.Watch.POLICY, 0)
                    .median();
            if (!raw.rows().equals(rows) || raw.memberships() != memberships) {
                throw new IllegalStateException(
                        "the raw load differs from the converged NB: " + raw.rows() + " vs " + rows);
            }
            policies.close();
            var restart = PolicyZoneHarness.restart(config, informers).counters();
            zone.close();
            return new Result(
                    kind,
                    rows,
                    memberships,
                    enforceNs,
                    convergeNs,
                    raw.wallNs(),
                    restart.writeOperations(),
                    restart.transactions());
        }
    }

    private static void print(List<Result> results, PolicyBenchCluster.Scale scale, String loadBefore, double totalS) {
        System.out.println();
        System.out.printf(
                "ClusterNetworkPolicyConvergenceBench --scale %s: load average %s before, %s after; %.0f s in all%n",
                scale.name().toLowerCase(Locale.ROOT), loadBefore, BenchStats.loadAverage(), totalS);
        System.out.println("| figure | ANP + BANP | CNP (Admin + Baseline tiers) | target |");
        System.out.println("|---|---|---|---|");
        Result anp =
                results.stream().filter(r -> r.kind().equals("ANP")).findFirst().orElseThrow();
        Result cnp =
                results.stream().filter(r -> r.kind().equals("CNP")).findFirst().orElseThrow();
        System.out.printf("| policy rows in the zone's NB | %s | %s | |%n", anp.rows(), cnp.rows());
        System.out.printf(
                "| convergence, NB enforcing (median) | %,.0f ms | %,.0f ms | |%n",
                median(results, "ANP", Result::enforceNs) / 1e6, median(results, "CNP", Result::enforceNs) / 1e6);
        System.out.printf(
                "| raw bulk load, same bystander (median) | %,.0f ms | %,.0f ms | |%n",
                median(results, "ANP", Result::rawNs) / 1e6, median(results, "CNP", Result::rawNs) / 1e6);
        System.out.printf(
                "| **ratio convergence / raw** (median; runs) | %.2fx (%s) | %.2fx (%s) | CNP within the ANP ratio |%n",
                medianRatio(results, "ANP"),
                ratios(results, "ANP"),
                medianRatio(results, "CNP"),
                ratios(results, "CNP"));
        System.out.printf(
                "| restart with nothing changed: writes (every run) | %s | %s | 0 |%n",
                writes(results, "ANP"), writes(results, "CNP"));
    }

    private static double median(List<Result> results, String kind, java.util.function.ToLongFunction<Result> f) {
        long[] values = results.stream()
                .filter(r -> r.kind().equals(kind))
                .mapToLong(f)
                .sorted()
                .toArray();
        return values.length % 2 == 1
                ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2.0;
    }

    private static double medianRatio(List<Result> results, String kind) {
        double[] values = results.stream()
                .filter(r -> r.kind().equals(kind))
                .mapToDouble(Result::ratio)
                .sorted()
                .toArray();
        return values.length % 2 == 1
                ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }

    private static String ratios(List<Result> results, String kind) {
        return String.join(
                " / ",
                results.stream()
                        .filter(r -> r.kind().equals(kind))
                        .map(r -> String.format("%.2f", r.ratio()))
                        .toList());
    }

    private static String writes(List<Result> results, String kind) {
        return Arrays.toString(results.stream()
                .filter(r -> r.kind().equals(kind))
                .mapToLong(Result::restartWrites)
                .toArray());
    }
}
