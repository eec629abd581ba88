package io.kovn.bench;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.data.Row;
import io.kovn.runtime.testing.OvnDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Issue 30's service benchmark: {@value #SERVICES} services × {@value #ENDPOINTS} endpoints on a real control plane,
 * the node process started as deployed ({@link NodeProcess}) on an empty zone, its NB watched from this JVM
 * ({@link NorthboundWatch}). The services have no selector and their EndpointSlices are written by the benchmark
 * (kube-controller-manager would need 10,000 pods). Each run:
 *
 * <ol>
 *   <li>from scratch: the service controller's start (services listed, its log line) → every service's load balancer
 *       written (the NB then quiet for {@value #QUIET_MS} ms), and process start → that moment; the baseline is a raw
 *       load of the same Load_Balancer and Load_Balancer_Group rows in one transact ({@link RawCopy}), in the same run;
 *   <li>{@value #CHANGES} single endpoint changes (one address of one slice replaced), one at a time: the NB
 *       transactions (monitor updates) and the rows they changed, and the latency from the patch to the new backend in
 *       the NB (p50, p99).
 * </ol>
 *
 * <pre>
 * scripts/bench.sh ServiceScaleBench [--runs 5]
 * </pre>
 */
public final class ServiceScaleBench {
    static final int SERVICES = 1000;
    static final int ENDPOINTS = 10;
    static final int NAMESPACES = 10;
    static final int CHANGES = 100;
    static final long QUIET_MS = 1000;
    private static final String MANAGED_BY = "endpointslice.kubernetes.io/managed-by";

    private final SeriesFigures figures = new SeriesFigures();
    private final Path logs;

    private ServiceScaleBench(Path logs) {
        this.logs = logs;
    }

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        int runs = SeriesFigures.runs(args);
        Path root = Path.of(System.getProperty("kovn.root", ".")).toAbsolutePath();
        List<String> command = NodeProcess.deployedCommand(root);
        Path logs = Files.createTempDirectory("kovn-service-scale-");
        System.out.printf(
                "load average %s; %d cores; node logs in %s%n",
                BenchStats.loadAverage(), Runtime.getRuntime().availableProcessors(), logs);
        ServiceScaleBench bench = new ServiceScaleBench(logs);
        try (ApiServer api = ApiServer.start();
                KubernetesClient client = api.newClient()) {
            for (int run = 1; run <= runs; run++) {
                bench.run(run, api, client, command);
            }
        }
        bench.figures.print("ServiceScaleBench", runs);
        System.exit(0);
    }

    private void run(int run, ApiServer api, KubernetesClient client, List<String> command) throws Exception {
        api.reset();
        ColdStartWorkload.createNodes(client);
        for (int i = 0; i < NAMESPACES; i++) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("svc-" + i)
                            .endMetadata()
                            .build())
                    .create();
        }
        List<Integer> ids = new ArrayList<>();
        for (int k = 0; k < SERVICES; k++) {
            ids.add(k);
        }
        parallel(
                ids,
                k -> client.services()
                        .inNamespace(namespace(k))
                        .resource(new ServiceBuilder()
                                .withNewMetadata()
                                .withName(name(k))
                                .withNamespace(namespace(k))
                                .endMetadata()
                                .withNewSpec()
                                .addNewPort()
                                .withName("http")
                                .withProtocol("TCP")
                                .withPort(80)
                                .withTargetPort(new IntOrString(8080))
                                .endPort()
                                .endSpec()
                                .build())
                        .create());
        parallel(
                ids,
                k -> client.discovery()
                        .v1()
                        .endpointSlices()
                        .inNamespace(namespace(k))
                        .resource(slice(k, 0))
                        .create());

        try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                NorthboundWatch nb = NorthboundWatch.connect(db.nb().unixEndpoint())) {
            AtomicLong rowsChanged = new AtomicLong();
            nb.cache().addListener(u -> {
                rowsChanged.addAndGet(u.changes().size());
            });
            try (NodeProcess node = NodeProcess.start(
                    command,
                    ColdStartWorkload.ZONE,
                    api.adminKubeconfig(),
                    db.nb().unixEndpoint(),
                    db.sb().unixEndpoint(),
                    logs.resolve("run" + run + ".log"))) {
                long stable = nb.awaitStable(
                        c -> serviceLbs(c) >= SERVICES && backends(c) >= (long) SERVICES * ENDPOINTS,
                        QUIET_MS,
                        180_000);
                figures.add(
                        "from scratch: process start → all load balancers written (ms)",
                        ms(stable - node.startNanos()));
                double servicesStarted = node.markMs("services started");
                figures.add(
                        "from scratch: service controller started (services listed; log) → all written (ms)",
                        ms(stable - node.startNanos()) - servicesStarted);
                RawCopy.Load load = RawCopy.medianOf3(
                        nb.cache(), t -> t.equals("Load_Balancer") || t.equals("Load_Balancer_Group"));
                figures.add(
                        "raw load of the same Load_Balancer and group rows, one transact (ms, median of 3)",
                        ms(load.wallNs()));
                figures.add("rows in that load", load.rows());
                figures.add(
                        "ratio: service controller started → all written / raw load",
                        (ms(stable - node.startNanos()) - servicesStarted) / ms(load.wallNs()));

                List<Double> latencies = new ArrayList<>();
                long updates = 0;
                long rows = 0;
                for (int i = 1; i <= CHANGES; i++) {
                    int k = (i * 7919) % SERVICES;
                    EndpointSlice changed = slice(k, run * 1000 + i);
                    String wanted =
                            changed.getEndpoints().getFirst().getAddresses().getFirst() + ":8080";
                    nb.reset();
                    rowsChanged.set(0);
                    long t0 = System.nanoTime();
                    client.discovery()
                            .v1()
                            .endpointSlices()
                            .inNamespace(namespace(k))
                            .resource(changed)
                            .update();
                    long seen = awaitBackend(nb.cache(), wanted, 20_000);
                    latencies.add(ms(seen - t0));
                    nb.awaitStable(c -> true, 1, 300, 20_000);
                    updates += nb.updates();
                    rows += rowsChanged.get();
                }
                figures.add("one endpoint change: NB transactions per change (mean)", (double) updates / CHANGES);
                figures.add("one endpoint change: rows changed per change (mean)", (double) rows / CHANGES);
                latencies.sort(null);
                figures.add("one endpoint change: patch → NB (ms, p50)", latencies.get(latencies.size() / 2));
                figures.add(
                        "one endpoint change: patch → NB (ms, p99)",
                        latencies.get((int) Math.ceil(latencies.size() * 0.99) - 1));
            }
        }
        System.out.printf("run %d done: %s%n", run, figures.last());
    }

    /**
     * The slice of service {@code k}: {@value #ENDPOINTS} ready endpoints on both nodes; {@code generation} moves the
     * first.
     */
    private static EndpointSlice slice(int k, int generation) {
        EndpointSliceBuilder b = new EndpointSliceBuilder()
                .withNewMetadata()
                .withName(name(k) + "-1")
                .withNamespace(namespace(k))
                .addToLabels("kubernetes.io/service-name", name(k))
                .addToLabels(MANAGED_BY, "kovn-bench")
                .endMetadata()
                .withAddressType("IPv4")
                .addNewPort()
                .withName("http")
                .withProtocol("TCP")
                .withPort(8080)
                .endPort();
        for (int j = 0; j < ENDPOINTS; j++) {
            int n = j == 0 && generation > 0 ? 100_000 + generation : k * ENDPOINTS + j;
            String ip = "10." + (200 + n / 65536 % 50) + "." + (n / 256 % 256) + "." + (n % 256);
            b.addToEndpoints(new EndpointBuilder()
                    .withAddresses(ip)
                    .withNodeName("node-" + (j % 2))
                    .withNewConditions()
                    .withReady(true)
                    .endConditions()
                    .build());
        }
        return b.build();
    }

    private static String namespace(int k) {
        return "svc-" + (k % NAMESPACES);
    }

    private static String name(int k) {
        return "s" + k;
    }

    private static long serviceLbs(MonitorCache c) {
        return c.table("Load_Balancer").rows().stream()
                .filter(r -> "Service".equals(r.stringMap("external_ids").get("k8s.ovn.org/kind")))
                .count();
    }

    /** Backends over every load balancer's VIPs. */
    private static long backends(MonitorCache c) {
        long n = 0;
        for (Row r : c.table("Load_Balancer").rows()) {
            for (String targets : r.stringMap("vips").values()) {
                n += targets.isEmpty() ? 0 : targets.split(",").length;
            }
        }
        return n;
    }

    /** Waits (polling every 0.2 ms) until some load balancer has {@code backend}; returns when it was seen. */
    private static long awaitBackend(MonitorCache c, String backend, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (System.nanoTime() < deadline) {
            for (Row r : c.table("Load_Balancer").rows()) {
                for (String targets : r.stringMap("vips").values()) {
                    if (targets.contains(backend)) {
                        return System.nanoTime();
                    }
                }
            }
            Thread.sleep(0, 200_000);
        }
        throw new IllegalStateException("backend " + backend + " not in the NB within " + timeoutMs + " ms");
    }

    private static <T> void parallel(List<T> items, Consumer<T> task) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            List<Future<?>> f = new ArrayList<>();
            items.forEach(i -> f.add(pool.submit(() -> task.accept(i))));
            for (Future<?> x : f) {
                x.get();
            }
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
