package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.data.Row;
import io.kovn.runtime.testing.OvnDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Issue 38: kovn's node process on the reference's own cold-start workload ({@link ColdStartWorkload}), on a real
 * control plane, started as deployed ({@link NodeProcess}), its zone's NB watched from this JVM
 * ({@link NorthboundWatch}); the baseline is a raw load of the same converged rows in one transact ({@link RawCopy}),
 * in the same run. Each run:
 *
 * <ol>
 *   <li>pre-addressed pods: process start → first NB write, → NB stable (the last update before {@value #QUIET_MS} ms
 *       without one, every local pod's port written); the process's CPU until then; its RSS after converging; the raw
 *       load;
 *   <li>one more AdminNetworkPolicy, then 100 local pods deleted: first change → NB stable;
 *   <li>bare pods (the controller allocates the local pods' addresses): process start → NB stable;
 *   <li>then 500 more bare local pods created while it runs (16 threads): last create → NB stable, and pods addressed
 *       and written per second (first create → NB stable).
 * </ol>
 *
 * <pre>
 * scripts/bench.sh ColdStartBench [--runs 5]      (bench/cold-start-series.sh: the 5-run series)
 *     [--allocating false]                          (the pre-addressed part only)
 *     [--jvm-options "-XX:..."]                     (an experiment: options added to the deployed ones)
 *     [--train-class-cache true]                    (an experiment: a class cache trained by one cold start)
 * </pre>
 *
 * Prints every figure's median and range over the runs, and the ratio to the raw load.
 */
public final class ColdStartBench {
    static final long QUIET_MS = 1000;
    private static final int LOCAL_PODS = ColdStartWorkload.NAMESPACES * ColdStartWorkload.PODS_PER_NAMESPACE / 2;

    private final SeriesFigures figures = new SeriesFigures();
    private final Path root;
    private final Path logs;

    private ColdStartBench(Path root, Path logs) {
        this.root = root;
        this.logs = logs;
    }

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        int runs = 5;
        boolean train = false;
        boolean allocating = true;
        List<String> jvmOptions = List.of();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--train-class-cache" -> train = Boolean.parseBoolean(args[i + 1]);
                case "--allocating" -> allocating = Boolean.parseBoolean(args[i + 1]);
                case "--jvm-options" -> jvmOptions = List.of(args[i + 1].strip().split("\\s+"));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path root = Path.of(System.getProperty("kovn.root", ".")).toAbsolutePath();
        List<String> command = new ArrayList<>(NodeProcess.deployedCommand(root));
        command.addAll(
                command.indexOf("-cp"), jvmOptions); // an experiment's options, after (and so over) the deployed ones
        Path logs = Files.createTempDirectory("kovn-cold-start-");
        System.out.println("node process: " + String.join(" ", command));
        System.out.printf(
                "load average %s; %d cores; node logs in %s%n",
                BenchStats.loadAverage(), Runtime.getRuntime().availableProcessors(), logs);
        ColdStartBench bench = new ColdStartBench(root, logs);
        try (ApiServer api = ApiServer.start();
                KubernetesClient client = api.newClient()) {
            if (train) {
                // an experiment: a class cache trained by one cold start of this workload, used by the runs
                Path config = logs.resolve("node.aotconf");
                Path aot = logs.resolve("node.aot");
                bench.run(
                        0,
                        api,
                        client,
                        NodeProcess.withClassCache(command, "-XX:AOTMode=record", "-XX:AOTConfiguration=" + config),
                        false);
                bench.figures.clear();
                List<String> create = new ArrayList<>(NodeProcess.withClassCache(
                        command, "-XX:AOTMode=create", "-XX:AOTConfiguration=" + config, "-XX:AOTCache=" + aot));
                create.add("--version");
                if (new ProcessBuilder(create).inheritIO().start().waitFor() != 0 || !Files.isRegularFile(aot)) {
                    throw new IllegalStateException("no class cache from " + config);
                }
                command = NodeProcess.withClassCache(command, "-XX:AOTCache=" + aot);
                System.out.println(
                        "class cache trained by a cold start: " + aot + " (" + Files.size(aot) / 1_000_000 + " MB)");
            }
            for (int run = 1; run <= runs; run++) {
                bench.run(run, api, client, command, allocating);
            }
        }
        bench.figures.print("ColdStartBench", runs);
        System.exit(0);
    }

    private void run(int run, ApiServer api, KubernetesClient client, List<String> command, boolean allocating)
            throws Exception {
        api.reset();
        ColdStartWorkload.createNodes(client);
        ColdStartWorkload.createNamespaces(client);
        ColdStartWorkload.createPods(client, ColdStartWorkload.pods(true));
        ColdStartWorkload.createAnps(client, 0, ColdStartWorkload.ANPS);
        Path kubeconfig = api.adminKubeconfig();
        try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                NorthboundWatch nb = NorthboundWatch.connect(db.nb().unixEndpoint());
                NodeProcess node = NodeProcess.start(
                        command,
                        ColdStartWorkload.ZONE,
                        kubeconfig,
                        db.nb().unixEndpoint(),
                        db.sb().unixEndpoint(),
                        logs.resolve("run" + run + "-addressed.log"));
                CpuSampler cpu = CpuSampler.start(node)) {
            long stable =
                    nb.awaitStable(ports(LOCAL_PODS).and(c -> c.table("ACL").size() > 0), QUIET_MS, 120_000);
            long t0 = node.startNanos();
            figures.add("cold start, pre-addressed: process start → NB stable (ms)", ms(stable - t0));
            figures.add("cold start: process start → first NB write (ms)", ms(nb.first() - t0));
            figures.add("cold start: process start → zone controller started (log, ms)", node.markMs("zone started"));
            figures.add(
                    "cold start: process start → policy controller started (log, ms)", node.markMs("policies started"));
            figures.add("controller CPU until converged (ms)", ms(cpu.at(stable)));
            System.out.println("run " + run + ": CPU by thread after converging (ms): "
                    + node.cpuByThread().entrySet().stream()
                            .filter(e -> e.getValue() > 0)
                            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                            .map(e -> e.getKey() + " " + e.getValue())
                            .collect(Collectors.joining(", ")));
            long updates = nb.updates();
            Thread.sleep(2000);
            if (nb.updates() != updates) {
                System.out.printf(
                        "run %d: %d NB updates after 'stable': the figure above is early%n",
                        run, nb.updates() - updates);
            }
            figures.add("RSS after converging (MiB)", node.rssBytes() / 1048576.0);
            figures.add("RSS after converging: anonymous (MiB)", node.status("RssAnon") / 1048576.0);
            figures.add("RSS after converging: file-backed (MiB)", node.status("RssFile") / 1048576.0);
            heap(node);
            int rows = nb.cache().tables().stream()
                    .mapToInt(t -> nb.cache().table(t).size())
                    .sum();
            figures.add("converged NB rows", rows);
            RawCopy.Load load = RawCopy.medianOf3(nb.cache(), t -> true);
            figures.add("raw load of the converged NB, one transact (ms, median of 3)", ms(load.wallNs()));
            figures.add("converged NB request size (MB)", load.requestBytes() / 1e6);
            figures.add("ratio NB stable / raw load", (double) (stable - t0) / load.wallNs());

            nb.reset();
            long a0 = System.nanoTime();
            ColdStartWorkload.createAnps(client, ColdStartWorkload.ANPS, 1);
            figures.add("add one ANP: create → NB stable (ms)", ms(nb.awaitStable(c -> true, 1, 500, 60_000) - a0));
            nb.reset();
            List<Pod> victims = ColdStartWorkload.pods(true).stream()
                    .filter(p -> ColdStartWorkload.ZONE.equals(p.getSpec().getNodeName()))
                    .limit(100)
                    .toList();
            long d0 = System.nanoTime();
            parallel(
                    victims,
                    p -> client.pods()
                            .inNamespace(p.getMetadata().getNamespace())
                            .withName(p.getMetadata().getName())
                            .withGracePeriod(0)
                            .delete());
            figures.add(
                    "delete 100 local pods: first delete → NB stable (ms)",
                    ms(nb.awaitStable(c -> localPorts(c) == LOCAL_PODS - 100, 1, 500, 60_000) - d0));
        }

        if (!allocating) {
            return;
        }
        api.reset();
        ColdStartWorkload.createNodes(client);
        ColdStartWorkload.createNamespaces(client);
        ColdStartWorkload.createPods(client, ColdStartWorkload.pods(false));
        ColdStartWorkload.createAnps(client, 0, ColdStartWorkload.ANPS);
        try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                NorthboundWatch nb = NorthboundWatch.connect(db.nb().unixEndpoint());
                NodeProcess node = NodeProcess.start(
                        command,
                        ColdStartWorkload.ZONE,
                        kubeconfig,
                        db.nb().unixEndpoint(),
                        db.sb().unixEndpoint(),
                        logs.resolve("run" + run + "-allocating.log"))) {
            long stable =
                    nb.awaitStable(ports(LOCAL_PODS).and(c -> c.table("ACL").size() > 0), QUIET_MS, 180_000);
            figures.add(
                    "cold start, the controller allocates local pod IPs: process start → NB stable (ms)",
                    ms(stable - node.startNanos()));

            List<Pod> more = new ArrayList<>();
            for (int i = 0; i < ColdStartWorkload.NAMESPACES; i++) {
                for (int j = 0; j < ColdStartWorkload.PODS_PER_NAMESPACE; j += 2) {
                    more.add(ColdStartWorkload.pod(i, j, "c", false));
                }
            }
            nb.reset();
            long c0 = System.nanoTime();
            long created = parallel(more, p -> ColdStartWorkload.createPod(client, p));
            long done = nb.awaitStable(ports(LOCAL_PODS + more.size()), QUIET_MS, 180_000);
            figures.add(
                    "pods created while running (500, 16 threads): creates per s",
                    more.size() / ((created - c0) / 1e9));
            figures.add("pods created while running, allocating: last create → NB stable (ms)", ms(done - created));
            figures.add(
                    "pods created while running, allocating: addressed and written per s",
                    more.size() / ((done - c0) / 1e9));
        }
        System.out.printf("run %d done: %s%n", run, figures.last());
    }

    /** The node process's heap as its JVM reports it (jcmd GC.heap_info), printed. */
    private static void heap(NodeProcess node) {
        try {
            StringBuilder out = new StringBuilder();
            // native memory too when the experiment turned it on (-XX:NativeMemoryTracking=summary)
            for (String what : List.of("GC.heap_info", "VM.native_memory")) {
                Process p = new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                        .toString(),
                                Long.toString(node.pid()),
                                what)
                        .redirectErrorStream(true)
                        .start();
                out.append(new String(p.getInputStream().readAllBytes()));
                p.waitFor();
            }
            System.out.println(
                    "node process memory after converging:\n" + out.toString().strip());
        } catch (Exception e) {
            System.out.println("no heap info: " + e);
        }
    }

    /** Runs {@code task} over {@code items} from 16 threads; returns when the last one finished (System.nanoTime). */
    private static <T> long parallel(List<T> items, Consumer<T> task) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            List<Future<?>> f = new ArrayList<>();
            items.forEach(i -> f.add(pool.submit(() -> task.accept(i))));
            for (Future<?> x : f) {
                x.get();
            }
        }
        return System.nanoTime();
    }

    /** At least {@code n} pod ports on the zone's switch. */
    private static Predicate<MonitorCache> ports(int n) {
        return c -> localPorts(c) >= n;
    }

    private static long localPorts(MonitorCache c) {
        return c.table("Logical_Switch_Port").rows().stream()
                .filter(ColdStartBench::podPort)
                .count();
    }

    private static boolean podPort(Row r) {
        return "Pod".equals(r.stringMap("external_ids").get("k8s.ovn.org/owner-type"));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** Samples a process's CPU every 10 ms, to read what it had used at a given moment. */
    private static final class CpuSampler implements AutoCloseable {
        private final NodeProcess node;
        private final List<long[]> samples = new ArrayList<>();
        private final Thread thread;

        private CpuSampler(NodeProcess node) {
            this.node = node;
            this.thread = Thread.ofPlatform().daemon().name("kovn-bench-cpu").start(this::sample);
        }

        static CpuSampler start(NodeProcess node) {
            return new CpuSampler(node);
        }

        private void sample() {
            try {
                while (node.alive()) {
                    long[] s = {System.nanoTime(), node.cpuNanos()};
                    synchronized (samples) {
                        samples.add(s);
                    }
                    Thread.sleep(10);
                }
            } catch (InterruptedException | RuntimeException e) {
                // closed, or the process ended
            }
        }

        /** The CPU used by the first sample at or after {@code nanos}. */
        long at(long nanos) {
            synchronized (samples) {
                return samples.stream().filter(s -> s[0] >= nanos).findFirst().orElse(samples.getLast())[1];
            }
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }
}
