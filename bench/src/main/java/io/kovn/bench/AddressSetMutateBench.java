package io.kovn.bench;

import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * What one pod relabel costs ovsdb-server, apart from kovn: a transaction of 92 {@code mutate}s that each add or remove
 * one address of a set of {@code S} addresses (the policy benchmark's relabel), on a real NB. The transacting client
 * monitors Address_Set on its own connection, as the policy controller does; {@code --monitors M} more clients monitor
 * it too (northd, an observer), with the same request or, with {@code --distinct}, each a different one (ovsdb-server
 * tracks and encodes the changes once per distinct request). Prints, per set size, the server's CPU per transaction and
 * the client's round trip.
 *
 * <pre>
 * scripts/bench.sh AddressSetMutateBench [--sets 300] [--sizes 400,1000,2000] [--monitors 1] [--distinct] [--txns 200]
 * </pre>
 */
public final class AddressSetMutateBench {
    private static final String NB = "OVN_Northbound";
    private static final String SETS = "Address_Set";
    private static final int MUTATES = 92;

    private AddressSetMutateBench() {}

    public static void main(String[] args) throws Exception {
        int sets = 300;
        int[] sizes = {400, 1000, 2000};
        int monitors = 1;
        boolean distinct = false;
        int txns = 200;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sets" -> sets = Integer.parseInt(args[++i]);
                case "--sizes" ->
                    sizes = Arrays.stream(args[++i].split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray();
                case "--monitors" -> monitors = Integer.parseInt(args[++i]);
                case "--distinct" -> distinct = true;
                case "--txns" -> txns = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.printf(
                "AddressSetMutateBench: %d sets, %d mutates per transaction, %d transactions, 1 + %d %s monitors%n",
                sets, MUTATES, txns, monitors, distinct ? "distinct" : "identical");
        System.out.println("| addresses per set | NB server CPU per transaction | round trip p50 / p99 |");
        System.out.println("|---|---|---|");
        for (int size : sizes) {
            run(sets, size, monitors, distinct, txns);
        }
    }

    private static void run(int sets, int size, int monitors, boolean distinct, int txns) throws Exception {
        try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbOnly());
                OvsdbClient c = OvsdbClient.builder()
                        .endpoint(db.nb().unixEndpoint())
                        .timeout(Duration.ofMinutes(2))
                        .connect()) {
            List<Operation> inserts = new ArrayList<>();
            for (int s = 0; s < sets; s++) {
                TreeSet<String> addresses = new TreeSet<>();
                for (int a = 0; a < size; a++) {
                    addresses.add("10." + (s % 200) + "." + (a / 250) + "." + (a % 250));
                }
                inserts.add(Ops.insert(SETS, Map.of("name", "set" + s, "addresses", addresses)));
            }
            c.transact(NB, inserts);
            List<AutoCloseable> open = new ArrayList<>();
            try (MonitorCache own = MonitorCache.start(c, NB, List.of(TableMonitor.all(SETS)))) {
                own.synced().get(2, TimeUnit.MINUTES);
                for (int m = 0; m < monitors; m++) {
                    OvsdbClient other = OvsdbClient.builder()
                            .endpoint(db.nb().unixEndpoint())
                            .timeout(Duration.ofMinutes(2))
                            .connect();
                    open.add(other);
                    // a distinct request: one more column each time
                    List<String> columns = distinct
                            ? List.of("name", "addresses", "external_ids", "comment")
                                    .subList(0, Math.min(4, 2 + m))
                            : List.of();
                    MonitorCache cache = MonitorCache.start(
                            other,
                            NB,
                            List.of(distinct ? new TableMonitor(SETS, columns, List.of()) : TableMonitor.all(SETS)));
                    open.add(0, cache);
                    cache.synced().get(2, TimeUnit.MINUTES);
                }
                List<Uuid> rows = own.table(SETS).rows().stream()
                        .map(Row::uuid)
                        .limit(MUTATES)
                        .toList();
                long pid = db.nb().pid().orElseThrow();
                long[] trips = new long[txns];
                long cpu0 = RawBaseline.processCpu(pid);
                for (int t = 0; t < txns; t++) {
                    String ip = "10.250.0." + (t / 2 % 250);
                    List<Operation> ops = new ArrayList<>(MUTATES);
                    for (Uuid row : rows) {
                        ops.add(Ops.mutate(
                                SETS,
                                row,
                                t % 2 == 0
                                        ? Mutation.insertOne("addresses", ip)
                                        : Mutation.deleteOne("addresses", ip)));
                    }
                    long t0 = System.nanoTime();
                    c.transact(NB, ops);
                    trips[t] = System.nanoTime() - t0;
                    Thread.sleep(5); // one event at a time, as in the policy benchmark
                }
                long cpu = RawBaseline.processCpu(pid) - cpu0;
                System.out.printf(
                        "| %,d | %.2f ms | %.2f / %.2f ms |%n",
                        size, cpu / 1e6 / txns, BenchStats.pct(trips, 50) / 1e6, BenchStats.pct(trips, 99) / 1e6);
            } finally {
                for (AutoCloseable a : open) {
                    a.close();
                }
            }
        }
    }
}
