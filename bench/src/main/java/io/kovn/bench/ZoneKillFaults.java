package io.kovn.bench;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.runtime.testing.OvnDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Issue 35: kovn's zone and policy controllers ({@code kovn node --no-node-agent}, a child JVM: {@link NodeChild})
 * killed with SIGKILL at random points of their reconciles, under pod and policy churn ({@link ZoneChurn}), on a real
 * kube-apiserver and real NB/SB ovsdb-servers. Each cycle: churn on; half the cycles also kill and restart the process
 * at once (so it starts under churn); the process is killed after a random delay (seeded), stays down a random while as
 * the churn goes on, the churn stops, the process starts again; then the zone must converge to the pure desired state
 * of the API's objects ({@link ZoneOracle}: topology, pods' ports, policy rows, no duplicate ids), timed from the
 * restart. Throughout, {@link GuardProbe} checks every NB update for a denied flow let through.
 *
 * <pre>
 * scripts/bench.sh ZoneKillFaults [--kills 100] [--seed N] [--max-delay-ms 4000]
 * </pre>
 */
public final class ZoneKillFaults {
    static final String ZONE = ColdStartWorkload.ZONE;
    private static final long CONVERGE_TIMEOUT_MS = 90_000;

    /** What a run found. */
    record Report(
            long seed,
            int kills,
            List<Long> convergeMs,
            long rowsChecked,
            long probeChecks,
            long churnWrites,
            List<String> violations) {}

    private ZoneKillFaults() {}

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        int kills = 100;
        long seed = System.nanoTime();
        long maxDelay = 4000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--kills" -> kills = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--max-delay-ms" -> maxDelay = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Report r;
        try (ApiServer api = ApiServer.start()) {
            r = run(api, kills, seed, maxDelay, Files.createTempDirectory("kovn-zone-kills-"));
        }
        print(r);
        System.exit(r.violations().isEmpty() ? 0 : 1);
    }

    static void print(Report r) {
        System.out.println("| ZoneKillFaults | seed " + r.seed() + " |");
        System.out.println("|---|---|");
        System.out.println("| SIGKILLs of the zone and policy controllers | " + r.kills() + " |");
        System.out.printf(
                "| restart → converged to the pure desired state p50 / p99 / max (ms) | %.0f / %.0f / %.0f |%n",
                BenchStats.pct(longs(r.convergeMs()), 50),
                BenchStats.pct(longs(r.convergeMs()), 99),
                BenchStats.pct(longs(r.convergeMs()), 100));
        System.out.println("| NB rows checked (sum over the post-restart checks) | " + r.rowsChecked() + " |");
        System.out.println("| NB updates probed for a denied flow let through | " + r.probeChecks() + " |");
        System.out.println("| API writes of the churn | " + r.churnWrites() + " |");
        System.out.println("| violations | " + r.violations().size() + " |");
        r.violations().stream().limit(50).forEach(v -> System.out.println("violation: " + v));
    }

    /** Runs {@code kills} cycles with this seed on an empty cluster of {@code api}; node logs under {@code logs}. */
    static Report run(ApiServer api, int kills, long seed, long maxDelayMs, Path logs) throws Exception {
        System.out.println("ZoneKillFaults: seed " + seed + ", " + kills + " kills, node log " + logs);
        Random random = new Random(seed);
        List<Long> converge = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        long rows = 0;
        try (KubernetesClient client = api.newClient()) {
            FaultCluster.create(api, client);
            try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                    NorthboundWatch nb = NorthboundWatch.connect(db.nb().unixEndpoint());
                    NodeChild node = new NodeChild(
                            ZONE,
                            api.adminKubeconfig(),
                            db.nb().unixEndpoint(),
                            db.sb().unixEndpoint(),
                            logs.resolve("node.log"));
                    ZoneChurn churn = new ZoneChurn(client, seed)) {
                ZoneOracle oracle = new ZoneOracle(ZONE, nb.client().getSchema(NorthboundWatch.NB));
                GuardProbe probe = new GuardProbe(nb.cache());
                long t0 = System.nanoTime();
                node.start();
                ZoneOracle.Result first = awaitConverged(oracle, client, nb, t0);
                if (!first.converged()) {
                    throw new IllegalStateException("the zone never converged before any kill: " + first.violations());
                }
                probe.arm(guardedPorts(nb));
                System.out.printf("first start converged in %.0f ms; guards %s%n", ms(t0), probe.guardIds());
                for (int k = 1; k <= kills; k++) {
                    churn.resume();
                    if (random.nextBoolean()) {
                        node.kill(); // then start under churn: the kill below may land in its start-up
                        node.start();
                    }
                    Thread.sleep(random.nextLong(maxDelayMs + 1));
                    node.kill();
                    Thread.sleep(random.nextLong(1000)); // changes the process misses while down
                    churn.pause();
                    long restart = System.nanoTime();
                    node.start();
                    ZoneOracle.Result r = awaitConverged(oracle, client, nb, restart);
                    rows += r.rowsChecked();
                    if (r.converged()) {
                        converge.add((long) ms(restart));
                    } else {
                        int kill = k;
                        r.violations().stream()
                                .limit(20)
                                .forEach(v -> violations.add(
                                        "kill " + kill + ": not converged in " + CONVERGE_TIMEOUT_MS + " ms: " + v));
                    }
                    if (k % 10 == 0 || !r.converged()) {
                        System.out.printf(
                                "kill %d: converged %s in %.0f ms (%d rows), probe %d checks, %d violations%n",
                                k,
                                r.converged(),
                                ms(restart),
                                r.rowsChecked(),
                                probe.checks(),
                                probe.violations().size());
                    }
                }
                churn.pause();
                probe.violations().forEach(v -> violations.add("probe: " + v));
                node.kill();
                violations.addAll(selfCheck(oracle, client, nb));
                return new Report(seed, kills, converge, rows, probe.checks(), churn.writes(), violations);
            }
        }
    }

    /**
     * The oracle can fail: with the controllers down, a new pod (a missing port) and a copy of a policy row (a
     * duplicate id, a stale row) must each be reported. Returns what it missed.
     */
    private static List<String> selfCheck(ZoneOracle oracle, KubernetesClient client, NorthboundWatch nb)
            throws Exception {
        List<String> missed = new ArrayList<>();
        Row set = nb.cache().table(AddressSet.TABLE_NAME).rows().getFirst();
        Map<String, Object> copy = new HashMap<>(set.columns());
        copy.put(AddressSet.NAME, set.get(AddressSet.NAME) + "-copy");
        nb.client().transact(NorthboundWatch.NB, List.of(Ops.insert(AddressSet.TABLE_NAME, copy)));
        ColdStartWorkload.createPod(client, ColdStartWorkload.pod(1, 0, "selfcheck", true));
        BenchStats.waitFor(
                () -> nb.cache()
                                .table(AddressSet.TABLE_NAME)
                                .byName(copy.get(AddressSet.NAME).toString())
                                .size()
                        == 1,
                10_000);
        List<String> found = oracle.check(client, nb.cache()).violations();
        if (found.stream().noneMatch(v -> v.contains("rows of id"))) {
            missed.add("self-check: a duplicate id went unreported: " + found);
        }
        if (found.stream().noneMatch(v -> v.startsWith("pod ns-1/selfcheck-0: no port"))) {
            missed.add("self-check: a missing pod port went unreported: " + found);
        }
        if (found.stream().noneMatch(v -> v.startsWith("policy: "))) {
            missed.add("self-check: a stale policy row went unreported: " + found);
        }
        return missed;
    }

    /** Checks until the zone equals the desired state, or the time is up (the last check's differences). */
    static ZoneOracle.Result awaitConverged(ZoneOracle oracle, KubernetesClient client, NorthboundWatch nb, long since)
            throws InterruptedException {
        ZoneOracle.Result r;
        while (true) {
            r = oracle.check(client, nb.cache());
            if (r.converged() || ms(since) > CONVERGE_TIMEOUT_MS) {
                return r;
            }
            Thread.sleep(100);
        }
    }

    /** The switch ports of the guarded namespace's pods, as the NB names them. */
    private static List<String> guardedPorts(NorthboundWatch nb) {
        return nb.cache().table(LogicalSwitchPort.TABLE_NAME).rows().stream()
                .filter(r ->
                        ((Map<?, ?>) r.get(LogicalSwitchPort.EXTERNAL_IDS)).get(ObjectId.NAME_KEY) instanceof String n
                                && n.startsWith(FaultCluster.GUARDED + "/"))
                .map(r -> (String) r.get(LogicalSwitchPort.NAME))
                .toList();
    }

    static long[] longs(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    static double ms(long since) {
        return (System.nanoTime() - since) / 1e6;
    }

    static NetworkPolicy denyAllIngress(String namespace) {
        return Serialization.unmarshal("""
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata: {name: guard, namespace: %s}
                spec: {podSelector: {}, policyTypes: [Ingress]}
                """.formatted(namespace), NetworkPolicy.class);
    }
}
