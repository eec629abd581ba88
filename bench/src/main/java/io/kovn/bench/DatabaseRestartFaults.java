package io.kovn.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.zone.ZoneModel;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Diff;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Issue 35: the NB and SB {@code ovsdb-server}s killed with SIGKILL under write load and started again on the same
 * database files, while kovn's zone and policy controllers ({@link NodeChild}) run under pod and policy churn and a
 * writer in this JVM commits one numbered row per transaction. After each restart: the zone converges to the pure
 * desired state ({@link ZoneOracle}; its SB chassis to {@link ZoneModel}'s), this JVM's NB and SB monitor caches equal
 * {@code ovsdb-client dump} table by table; at the end, every transaction the client reported committed is in the NB
 * exactly once, and none whose outcome the client could not know is there twice.
 *
 * <pre>
 * scripts/bench.sh DatabaseRestartFaults [--restarts 30] [--seed N]
 * </pre>
 */
public final class DatabaseRestartFaults {
    private static final String NB = NorthboundWatch.NB;
    private static final String SB = "OVN_Southbound";
    /** The NB tables compared with the server's dump after each restart (every table the controllers write). */
    private static final List<String> NB_COMPARED = List.of(
            "Logical_Switch",
            "Logical_Switch_Port",
            "Logical_Router",
            "Logical_Router_Port",
            "Logical_Router_Static_Route",
            "NAT",
            "ACL",
            "Address_Set",
            "Port_Group",
            "Load_Balancer",
            "Load_Balancer_Group");

    private static final List<String> SB_COMPARED = List.of("Chassis", "Encap");
    private static final String WRITER_KEY = "kovn-fault-writer";
    /** Between the writer's transactions: a steady load (about 200 a second), not a flood of the one NB server. */
    private static final long WRITE_PERIOD_MS = 5;

    /** What a run found. */
    record Report(
            long seed,
            int restarts,
            List<Long> convergeMs,
            long committed,
            long uncertain,
            long rowsCompared,
            List<String> violations) {}

    /** The writer's outcome for one transaction. */
    private enum Outcome {
        COMMITTED,
        UNKNOWN
    }

    private DatabaseRestartFaults() {}

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        int restarts = 30;
        long seed = System.nanoTime();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--restarts" -> restarts = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Report r;
        try (ApiServer api = ApiServer.start()) {
            r = run(api, restarts, seed, Files.createTempDirectory("kovn-db-restarts-"));
        }
        print(r);
        System.exit(r.violations().isEmpty() ? 0 : 1);
    }

    static void print(Report r) {
        long[] c = ZoneKillFaults.longs(r.convergeMs());
        System.out.println("| DatabaseRestartFaults | seed " + r.seed() + " |");
        System.out.println("|---|---|");
        System.out.println("| SIGKILL + restart of ovsdb-server (NB, SB or both) | " + r.restarts() + " |");
        System.out.printf(
                "| restart → zone converged, caches equal the dumps p50 / p99 / max (ms) | %.0f / %.0f / %.0f |%n",
                BenchStats.pct(c, 50), BenchStats.pct(c, 99), BenchStats.pct(c, 100));
        System.out.println("| writer transactions reported committed (each found once) | " + r.committed() + " |");
        System.out.println("| writer transactions of unknown outcome (found at most once) | " + r.uncertain() + " |");
        System.out.println("| cache rows compared with ovsdb-client dump | " + r.rowsCompared() + " |");
        System.out.println("| violations | " + r.violations().size() + " |");
        r.violations().stream().limit(50).forEach(v -> System.out.println("violation: " + v));
    }

    /** Runs {@code restarts} cycles with this seed on an empty cluster of {@code api}; node logs under {@code logs}. */
    static Report run(ApiServer api, int restarts, long seed, Path logs) throws Exception {
        System.out.println("DatabaseRestartFaults: seed " + seed + ", " + restarts + " restarts, node log " + logs);
        Random random = new Random(seed);
        List<Long> converge = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        long compared = 0;
        Map<Long, Outcome> outcomes = new ConcurrentHashMap<>();
        try (KubernetesClient client = api.newClient()) {
            FaultCluster.create(api, client);
            try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                    OvsdbClient nbClient = reconnecting(db.nb().unixEndpoint(), Duration.ofSeconds(30));
                    OvsdbClient sbClient = reconnecting(db.sb().unixEndpoint(), Duration.ofSeconds(30));
                    OvsdbClient writerClient = reconnecting(db.nb().unixEndpoint(), Duration.ofSeconds(2));
                    MonitorCache nb = all(nbClient, NB);
                    MonitorCache sb = all(sbClient, SB);
                    NodeChild node = new NodeChild(
                            ZoneKillFaults.ZONE,
                            api.adminKubeconfig(),
                            db.nb().unixEndpoint(),
                            db.sb().unixEndpoint(),
                            logs.resolve("node.log"));
                    ZoneChurn churn = new ZoneChurn(client, seed)) {
                DatabaseSchema nbSchema = nbClient.getSchema(NB);
                DatabaseSchema sbSchema = sbClient.getSchema(SB);
                ZoneOracle oracle = new ZoneOracle(ZoneKillFaults.ZONE, nbSchema);
                long t0 = System.nanoTime();
                node.start();
                if (!awaitChecks(db, nbSchema, oracle, client, nb, sb, sbSchema, t0)
                        .isEmpty()) {
                    throw new IllegalStateException("the zone never converged before any restart");
                }
                AtomicBoolean writing = new AtomicBoolean(true);
                // held during each transaction: the checks take it, so that the dumps and the cache see one state
                ReentrantLock writes = new ReentrantLock();
                AtomicLong committedCount = new AtomicLong();
                Thread writer = Thread.ofPlatform().name("kovn-fault-writer").start(() -> {
                    for (long n = 0; writing.get(); n++) {
                        writes.lock();
                        outcomes.put(n, Outcome.UNKNOWN);
                        try {
                            writerClient.transact(
                                    NB,
                                    List.of(Ops.insert(
                                            "Load_Balancer",
                                            Map.of(
                                                    "name",
                                                    "fault-" + n,
                                                    "external_ids",
                                                    Map.of(WRITER_KEY, Long.toString(n))))));
                            outcomes.put(n, Outcome.COMMITTED);
                            committedCount.incrementAndGet();
                        } catch (RuntimeException e) {
                            // down, reset mid-flight or timed out: committed or not, the client cannot know
                            sleep(20);
                        } finally {
                            writes.unlock();
                        }
                        sleep(WRITE_PERIOD_MS);
                    }
                });
                for (int r = 1; r <= restarts; r++) {
                    churn.resume();
                    Thread.sleep(500 + random.nextLong(2500));
                    int which = random.nextInt(3); // 0 NB, 1 SB, 2 both
                    List<OvsdbServerProcess> servers = switch (which) {
                        case 0 -> List.of(db.nb());
                        case 1 -> List.of(db.sb());
                        default -> List.of(db.nb(), db.sb());
                    };
                    servers.forEach(OvsdbServerProcess::kill);
                    Thread.sleep(random.nextLong(1500));
                    long restart = System.nanoTime();
                    servers.forEach(OvsdbServerProcess::restart);
                    long before = committedCount.get();
                    Thread.sleep(random.nextLong(1000)); // load on the restarted server
                    churn.pause();
                    while (committedCount.get() < before + 5 && ZoneKillFaults.ms(restart) < 60_000) {
                        Thread.sleep(20);
                    }
                    writes.lock();
                    List<String> found = awaitChecks(db, nbSchema, oracle, client, nb, sb, sbSchema, restart);
                    writes.unlock();
                    if (committedCount.get() < before + 5) {
                        found = new ArrayList<>(found);
                        found.add("the writer committed nothing within 60 s of the restart");
                    }
                    if (found.isEmpty()) {
                        converge.add((long) ZoneKillFaults.ms(restart));
                        compared += cacheRows(nb, NB_COMPARED) + cacheRows(sb, SB_COMPARED);
                    }
                    int restartNo = r;
                    found.stream().limit(20).forEach(v -> violations.add("restart " + restartNo + ": " + v));
                    if (r % 5 == 0 || !found.isEmpty()) {
                        System.out.printf(
                                "restart %d (%s): checks %s in %.0f ms; writer %d committed%n",
                                r,
                                List.of("NB", "SB", "NB+SB").get(which),
                                found.isEmpty() ? "passed" : "failed",
                                ZoneKillFaults.ms(restart),
                                committedCount.get());
                    }
                }
                writing.set(false);
                writer.join();
                // every committed transaction once, none twice
                Map<Long, Integer> found = new HashMap<>();
                for (Row lb : ServerRows.dump(db, db.nb(), nbSchema, "Load_Balancer")) {
                    if (((Map<?, ?>) lb.get("external_ids")).get(WRITER_KEY) instanceof String n) {
                        found.merge(Long.parseLong(n), 1, Integer::sum);
                    }
                }
                long committed = 0;
                long uncertain = 0;
                for (var e : outcomes.entrySet()) {
                    int n = found.getOrDefault(e.getKey(), 0);
                    if (e.getValue() == Outcome.COMMITTED) {
                        committed++;
                        if (n != 1) {
                            violations.add(
                                    "writer transaction " + e.getKey() + " reported committed, found " + n + " times");
                        }
                    } else {
                        uncertain++;
                        if (n > 1) {
                            violations.add("writer transaction " + e.getKey() + " found " + n + " times");
                        }
                    }
                }
                found.keySet().stream()
                        .filter(n -> !outcomes.containsKey(n))
                        .forEach(n -> violations.add("writer row " + n + " never written"));
                churn.pause();
                return new Report(seed, restarts, converge, committed, uncertain, compared, violations);
            }
        }
    }

    /**
     * Waits until the zone equals its desired state (NB and SB) and both caches equal the servers' dumps; returns the
     * differences left after 90 s (none when all held).
     */
    private static List<String> awaitChecks(
            OvnDatabases db,
            DatabaseSchema nbSchema,
            ZoneOracle oracle,
            KubernetesClient client,
            MonitorCache nb,
            MonitorCache sb,
            DatabaseSchema sbSchema,
            long since)
            throws InterruptedException {
        while (true) {
            List<String> out = new ArrayList<>(oracle.check(client, nb).violations());
            if (out.isEmpty()) {
                var plan = ZoneModel.plan(
                        ZoneKillFaults.ZONE, client.nodes().list().getItems(), Set.of(), CurrentState.of(nb));
                Diff.of(sbSchema, ZoneModel.OWNER, plan.southbound(), CurrentState.of(sb))
                        .operations()
                        .forEach(op -> out.add("SB: " + op));
            }
            if (out.isEmpty()) {
                out.addAll(cacheDiffers(db, db.nb(), nbSchema, nb, NB_COMPARED));
                out.addAll(cacheDiffers(db, db.sb(), sbSchema, sb, SB_COMPARED));
            }
            if (out.isEmpty() || ZoneKillFaults.ms(since) > 90_000) {
                return out;
            }
            Thread.sleep(100);
        }
    }

    /** Each table's rows in the cache against the server's dump. */
    private static List<String> cacheDiffers(
            OvnDatabases db,
            OvsdbServerProcess server,
            DatabaseSchema schema,
            MonitorCache cache,
            List<String> tables) {
        List<String> out = new ArrayList<>();
        for (String table : tables) {
            Set<Row> dumped = ServerRows.dump(db, server, schema, table);
            Set<Row> cached = new HashSet<>(cache.table(table).rows());
            if (!dumped.equals(cached)) {
                Set<Row> extra = new HashSet<>(cached);
                extra.removeAll(dumped);
                dumped.removeAll(cached);
                out.add(schema.name() + " " + table + ": the cache holds " + extra.size()
                        + " rows the server does not, and misses " + dumped.size());
            }
        }
        return out;
    }

    private static long cacheRows(MonitorCache cache, List<String> tables) {
        return tables.stream().mapToLong(t -> cache.table(t).size()).sum();
    }

    private static OvsdbClient reconnecting(String endpoint, Duration timeout) {
        return OvsdbClient.builder()
                .endpoint(endpoint)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                .timeout(timeout)
                .connect();
    }

    private static MonitorCache all(OvsdbClient client, String db) throws Exception {
        List<TableMonitor> tables = client.getSchema(db).tables().keySet().stream()
                .map(TableMonitor::all)
                .toList();
        MonitorCache cache = MonitorCache.start(client, db, tables);
        cache.synced().get(1, TimeUnit.MINUTES);
        return cache;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
