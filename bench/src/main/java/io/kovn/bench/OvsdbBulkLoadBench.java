package io.kovn.bench;

import com.sun.management.OperatingSystemMXBean;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.OperationCodec;
import io.kovn.runtime.testing.OvnDatabases;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Bulk load through kovn's OVSDB client against the physical limit, on a real NB ovsdb-server:
 *
 * <ol>
 *   <li>20,000 ACLs (in 100 port groups) and 1,000 address sets holding 100,000 addresses, as one transaction through
 *       {@link OvsdbClient#transact}, versus the same JSON-RPC bytes written raw to the server's socket (a fresh server
 *       each, same run). {@code ovsdb-client transact} cannot carry the ~10 MB transaction: Linux caps one argument at
 *       128 KiB.
 *   <li>A one-address change to a 10,000-address set: {@code mutate insert} versus rewriting the column with
 *       {@code update} (median of repeated runs).
 *   <li>Heap held by a monitor cache of the whole data set.
 *   <li>The monitor side ({@link MonitorReceive}): a bystander cache receiving a policy-shaped bulk insert as one
 *       update, and a second client's initial monitor reply of it, against the same bytes read raw and parsed into a
 *       plain Jackson tree. {@code --monitor-only} runs just this.
 * </ol>
 *
 * Wall time on a shared machine mostly measures waiting for a core, so CPU time (this JVM plus the ovsdb-server
 * process, from /proc) is reported next to it.
 *
 * <pre>
 * mvn -B -q -o install -pl bench -am -DskipTests
 * mvn -B -q -o dependency:build-classpath -pl bench -Dmdep.outputFile=/tmp/bench-cp.txt
 * java -Xmx2g -cp "$(cat /tmp/bench-cp.txt):bench/target/classes" io.kovn.bench.OvsdbBulkLoadBench [rounds, default 5] [--monitor-only]
 * </pre>
 *
 * (run from the repository root, where the OVN runtime is found; or pass -Dkovn.runtime=...)
 */
public final class OvsdbBulkLoadBench {
    private static final String NB = "OVN_Northbound";
    private static final int ACLS = 20_000;
    private static final int PORT_GROUPS = 100;
    private static final int ADDRESS_SETS = 1_000;
    private static final int ADDRESSES_PER_SET = 100;
    private static final int BIG_SET = 10_000;

    private OvsdbBulkLoadBench() {}

    /**
     * One load: wall time, and CPU time of this JVM (the client side) and of the server. On a shared machine wall time
     * mostly measures waiting for a core; CPU time does not.
     */
    record Load(long wallNs, long clientCpuNs, long serverCpuNs) {
        long totalCpuNs() {
            return clientCpuNs + serverCpuNs;
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> argList = List.of(args);
        int rounds = argList.stream()
                .filter(a -> !a.startsWith("--"))
                .findFirst()
                .map(Integer::parseInt)
                .orElse(5);
        if (argList.contains("--monitor-only")) {
            MonitorReceive.run(2, rounds);
            return;
        }
        List<Operation> ops = dataSet();
        byte[] raw = Json.bytes(Json.object()
                .put("method", "transact")
                .put("id", 1)
                .set("params", OperationCodec.transactParams(NB, ops)));
        System.out.printf("data set: %d operations, %.1f MB of JSON%n", ops.size(), raw.length / 1e6);

        kovnLoad(ops); // warm-up (twice): JIT-compile the client's encode/decode paths, not measured
        kovnLoad(ops);
        Load[] kovnRuns = new Load[rounds];
        Load[] rawRuns = new Load[rounds];
        for (int r = 0; r < rounds; r++) {
            // alternate which goes first so neither always meets a warmer machine
            if (r % 2 == 0) {
                kovnRuns[r] = kovnLoad(ops);
                rawRuns[r] = rawLoad(raw);
            } else {
                rawRuns[r] = rawLoad(raw);
                kovnRuns[r] = kovnLoad(ops);
            }
            System.out.printf("round %d: kovn %s | raw %s%n", r, fmt(kovnRuns[r]), fmt(rawRuns[r]));
        }
        long[] kovn = Arrays.stream(kovnRuns).mapToLong(Load::wallNs).toArray();
        long[] rawNs = Arrays.stream(rawRuns).mapToLong(Load::wallNs).toArray();
        long[] kovnCpu = Arrays.stream(kovnRuns).mapToLong(Load::totalCpuNs).toArray();
        long[] rawCpu = Arrays.stream(rawRuns).mapToLong(Load::totalCpuNs).toArray();

        long[] mutate;
        long[] rewrite;
        long[] mutateCpu;
        long[] rewriteCpu;
        long[] mutateServerCpu;
        long[] rewriteServerCpu;
        long heap;
        try (OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly());
                OvsdbClient c =
                        OvsdbClient.builder().endpoint(ovn.nb().unixEndpoint()).connect()) {
            c.transact(NB, ops);
            Set<String> big = new HashSet<>();
            for (int i = 0; i < BIG_SET; i++) {
                big.add(ip(20, i));
            }
            c.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "big", "addresses", Set.copyOf(big)))));
            List<Condition> where = List.of(Condition.eq("name", "big"));
            int warmup = 40;
            int n = 100;
            mutate = new long[n];
            rewrite = new long[n];
            mutateCpu = new long[n];
            rewriteCpu = new long[n];
            mutateServerCpu = new long[n];
            rewriteServerCpu = new long[n];
            long pid = ovn.nb().pid().orElseThrow();
            // for single small operations, process CPU is dominated by GC/JIT work caused elsewhere:
            // count the two threads that do a transaction's work (caller and socket reader)
            long reader = readerThreadId();
            // JIT warm-up of the small-transaction path: ~1,000 cheap mutates, not measured
            for (int i = 0; i < 500; i++) {
                String extra = ip(22, i);
                c.transact(NB, List.of(Ops.mutate("Address_Set", where, Mutation.insertOne("addresses", extra))));
                c.transact(NB, List.of(Ops.mutate("Address_Set", where, Mutation.deleteOne("addresses", extra))));
            }
            for (int i = -warmup; i < n; i++) {
                String extra = ip(21, i + warmup);
                Mutation undo = Mutation.deleteOne("addresses", extra);
                long s0 = processCpu(pid);
                long c0 = threadsCpu(reader);
                long t0 = System.nanoTime();
                c.transact(NB, List.of(Ops.mutate("Address_Set", where, Mutation.insertOne("addresses", extra))));
                long tm = System.nanoTime() - t0;
                long serverM = processCpu(pid) - s0;
                long cpuM = threadsCpu(reader) - c0 + serverM;
                c.transact(NB, List.of(Ops.mutate("Address_Set", where, undo)));
                Set<String> plusOne = new HashSet<>(big);
                plusOne.add(extra);
                var rewriteOp = Ops.update(
                        "Address_Set", Map.of("addresses", Set.copyOf(plusOne)), where.toArray(Condition[]::new));
                s0 = processCpu(pid);
                c0 = threadsCpu(reader);
                t0 = System.nanoTime();
                c.transact(NB, List.of(rewriteOp));
                long tu = System.nanoTime() - t0;
                long serverU = processCpu(pid) - s0;
                long cpuU = threadsCpu(reader) - c0 + serverU;
                c.transact(NB, List.of(Ops.mutate("Address_Set", where, undo)));
                if (i >= 0) {
                    mutate[i] = tm;
                    rewrite[i] = tu;
                    mutateCpu[i] = cpuM;
                    rewriteCpu[i] = cpuU;
                    mutateServerCpu[i] = serverM;
                    rewriteServerCpu[i] = serverU;
                }
            }
            heap = cacheHeap(c);
        }

        double k = median(kovn) / 1e6;
        double rw = median(rawNs) / 1e6;
        double m = median(mutate) / 1e6;
        double u = median(rewrite) / 1e6;
        System.out.println();
        System.out.println("| measurement                                      | value        | target       |");
        System.out.println("|--------------------------------------------------|--------------|--------------|");
        System.out.printf(
                "| bulk load via kovn client (median of %d)          | %9.0f ms |              |%n", rounds, k);
        System.out.printf(
                "| same JSON raw on the socket (median of %d)        | %9.0f ms |              |%n", rounds, rw);
        System.out.printf("| ratio kovn / raw (wall)                          | %11.2fx | <= 1.5x      |%n", k / rw);
        System.out.printf(
                "| kovn CPU, client + server (median)               | %9.0f ms |              |%n",
                median(kovnCpu) / 1e6);
        System.out.printf(
                "| raw CPU, writer + server (median)                | %9.0f ms |              |%n",
                median(rawCpu) / 1e6);
        System.out.printf(
                "| ratio kovn / raw (CPU)                           | %11.2fx | <= 1.5x      |%n",
                median(kovnCpu) / median(rawCpu));
        System.out.printf("| one address into a %d-address set: mutate     | %9.2f ms |              |%n", BIG_SET, m);
        System.out.printf("| same change by rewriting the column (update)     | %9.2f ms |              |%n", u);
        System.out.printf("| ratio rewrite / mutate (wall)                    | %11.1fx | >= 20x       |%n", u / m);
        double mc = blockMedian(mutateCpu);
        double uc = blockMedian(rewriteCpu);
        System.out.printf(
                "| CPU per mutate, client threads + server          | %9.2f ms | server %.2f  |%n",
                mc / 1e6, blockMedian(mutateServerCpu) / 1e6);
        System.out.printf(
                "| CPU per rewrite, client threads + server         | %9.2f ms | server %.2f |%n",
                uc / 1e6, blockMedian(rewriteServerCpu) / 1e6);
        System.out.printf(
                "| ratio rewrite / mutate (CPU)                     | %11.1fx | >= 20x       |%n",
                uc / Math.max(1, mc));
        System.out.printf(
                "| monitor cache heap (ACL+Address_Set+Port_Group)  | %9.1f MB | <= 200 MB    |%n", heap / 1e6);
        System.out.println();
        MonitorReceive.run(2, rounds);
    }

    /** 100 port groups of 200 ACLs each; 1,000 address sets of 100 addresses, owned as kovn owns rows. */
    static List<Operation> dataSet() {
        List<Operation> ops = new ArrayList<>();
        for (int s = 0; s < ADDRESS_SETS; s++) {
            Set<String> addrs = new HashSet<>();
            for (int a = 0; a < ADDRESSES_PER_SET; a++) {
                addrs.add(ip(s / 250, (s % 250) * ADDRESSES_PER_SET + a));
            }
            ops.add(Ops.insert(
                    "Address_Set",
                    Map.of(
                            "name",
                            "a" + (1000000 + s),
                            "addresses",
                            addrs,
                            "external_ids",
                            ownerIds("AdminNetworkPolicy", "anp" + s + ":Ingress:0:v4"))));
        }
        int perGroup = ACLS / PORT_GROUPS;
        for (int g = 0; g < PORT_GROUPS; g++) {
            Set<NamedUuid> acls = new HashSet<>();
            for (int i = 0; i < perGroup; i++) {
                int n = g * perGroup + i;
                var acl = Ops.insert(
                                "ACL",
                                Map.of(
                                        "priority",
                                        (long) (30000 - i),
                                        "direction",
                                        "to-lport",
                                        "match",
                                        "outport == @pg" + g + " && ip4.src == $a" + (1000000 + n % ADDRESS_SETS),
                                        "action",
                                        n % 2 == 0 ? "pass" : "drop",
                                        "tier",
                                        1L,
                                        "name",
                                        Set.of("ANP:anp" + g + ":Ingress:" + i),
                                        "meter",
                                        Set.of("acl-logging"),
                                        "external_ids",
                                        ownerIds("AdminNetworkPolicy", "anp" + g + ":Ingress:" + i)))
                        .named("acl" + n);
                ops.add(acl);
                acls.add(acl.ref());
            }
            ops.add(Ops.insert(
                    "Port_Group",
                    Map.of("name", "pg" + g, "acls", acls, "external_ids", ownerIds("AdminNetworkPolicy", "anp" + g))));
        }
        return ops;
    }

    /** The external_ids kovn writes on a policy row (also {@link MonitorReceive}'s data set). */
    static Map<String, String> ownerIds(String type, String key) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("k8s.ovn.org/owner-controller", "default-network-controller");
        m.put("k8s.ovn.org/owner-type", type);
        m.put("k8s.ovn.org/name", key);
        m.put("k8s.ovn.org/id", "default-network-controller:" + type + ":" + key);
        return m;
    }

    private static String ip(int hi, int n) {
        return "10." + hi + "." + (n / 256) % 256 + "." + n % 256;
    }

    private static String fmt(Load l) {
        return String.format(
                "wall %5.0f ms, cpu client %4.0f ms + server %5.0f ms",
                l.wallNs() / 1e6, l.clientCpuNs() / 1e6, l.serverCpuNs() / 1e6);
    }

    private static long readerThreadId() {
        var tm = ManagementFactory.getThreadMXBean();
        for (long id : tm.getAllThreadIds()) {
            var info = tm.getThreadInfo(id);
            if (info != null && info.getThreadName().startsWith("ovsdb-reader")) {
                return id;
            }
        }
        throw new IllegalStateException("no ovsdb reader thread");
    }

    /** CPU of the calling thread plus the client's socket reader thread. */
    private static long threadsCpu(long reader) {
        var tm = ManagementFactory.getThreadMXBean();
        return tm.getCurrentThreadCpuTime() + tm.getThreadCpuTime(reader);
    }

    private static long jvmCpu() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** CPU time of a process in ns: the sum of its threads' run time from /proc/PID/task/TID/schedstat. */
    private static long processCpu(long pid) {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            long sum = 0;
            for (var t : tasks.toList()) {
                try {
                    String stat = Files.readString(t.resolve("schedstat"));
                    sum += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                } catch (IOException gone) {
                    // thread ended meanwhile
                }
            }
            return sum;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Load kovnLoad(List<Operation> ops) {
        try (OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly());
                OvsdbClient c = OvsdbClient.builder()
                        .endpoint(ovn.nb().unixEndpoint())
                        .timeout(Duration.ofMinutes(5))
                        .connect()) {
            long pid = ovn.nb().pid().orElseThrow();
            long s0 = processCpu(pid);
            long c0 = jvmCpu();
            long t0 = System.nanoTime();
            var r = c.transact(NB, ops);
            long t = System.nanoTime() - t0;
            long c1 = jvmCpu();
            long s1 = processCpu(pid);
            if (r.inserted().size() != ACLS) {
                throw new IllegalStateException("expected " + ACLS + " named inserts, got "
                        + r.inserted().size());
            }
            return new Load(t, c1 - c0, s1 - s0);
        }
    }

    /** Writes the request bytes to the socket and reads until the whole reply has arrived. */
    private static Load rawLoad(byte[] request) throws IOException {
        try (OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly())) {
            long pid = ovn.nb().pid().orElseThrow();
            long s0 = processCpu(pid);
            long c0 = jvmCpu();
            long t0 = System.nanoTime();
            RawTransact.send(ovn.nb().socket(), request);
            long t = System.nanoTime() - t0;
            long c1 = jvmCpu();
            long s1 = processCpu(pid);
            return new Load(t, c1 - c0, s1 - s0);
        }
    }

    private static long cacheHeap(OvsdbClient c) throws InterruptedException {
        long before = usedAfterGc();
        MonitorCache cache = MonitorCache.start(
                c,
                NB,
                List.of(TableMonitor.all("ACL"), TableMonitor.all("Address_Set"), TableMonitor.all("Port_Group")));
        long after = usedAfterGc();
        int rows = cache.table("ACL").size()
                + cache.table("Address_Set").size()
                + cache.table("Port_Group").size();
        System.out.printf("monitor cache holds %d rows%n", rows);
        cache.close();
        return after - before;
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Operations are averaged in blocks of 10; the median block mean then ignores blocks hit by unrelated work (GC,
     * JIT, a compaction).
     */
    private static double blockMedian(long[] v) {
        int blocks = v.length / 10;
        long[] means = new long[blocks];
        for (int b = 0; b < blocks; b++) {
            long sum = 0;
            for (int i = b * 10; i < b * 10 + 10; i++) {
                sum += v[i];
            }
            means[b] = sum / 10;
        }
        return median(means);
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
