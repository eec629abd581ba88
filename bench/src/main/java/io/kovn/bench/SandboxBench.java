package io.kovn.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.Sandbox;
import io.kovn.sandbox.SandboxConfig;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.Leftovers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sandbox figures: time to bring up an N-node sandbox, and pod creation to Ready (phase Running with an IP, i.e.
 * scheduled, IP allocated, switch port programmed, plumbed by the real CNI plugin and ovn-installed) for M pods across
 * the nodes, created in one burst.
 *
 * <pre>scripts/bench.sh SandboxBench [--nodes 3] [--pods 100] [--mode burst|sequential]</pre>
 */
public final class SandboxBench {
    private SandboxBench() {}

    public static void main(String[] args) throws Exception {
        int nodes = 3;
        int pods = 100;
        boolean sequential = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
                case "--pods" -> pods = Integer.parseInt(args[i + 1]);
                case "--mode" -> sequential = args[i + 1].equals("sequential");
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String prefix = "kvb-";
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kvb");
        Path root = Path.of(System.getProperty("kovn.root", ".")).toAbsolutePath();
        long t0 = System.nanoTime();
        Sandbox sandbox = null;
        try {
            sandbox = Sandbox.start(
                    new SandboxLayout(dir),
                    new SandboxConfig(nodes, prefix, "10.254.7.0/24"),
                    OvnRuntime.locate(),
                    root);
            double upSeconds = (System.nanoTime() - t0) / 1e9;
            KubernetesClient client = sandbox.client();
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("bench")
                            .endMetadata()
                            .build())
                    .create();
            Map<String, Long> created = new ConcurrentHashMap<>();
            List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ready = new CountDownLatch(pods);
            var informer = client.pods().inNamespace("bench").inform(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod p) {
                    check(p);
                }

                @Override
                public void onUpdate(Pod o, Pod n) {
                    check(n);
                }

                @Override
                public void onDelete(Pod p, boolean u) {}

                private void check(Pod p) {
                    if (p.getStatus() != null
                            && "Running".equals(p.getStatus().getPhase())
                            && p.getStatus().getPodIP() != null) {
                        Long start = created.remove(p.getMetadata().getName());
                        if (start != null) {
                            latencies.add((System.nanoTime() - start) / 1e6);
                            ready.countDown();
                        }
                    }
                }
            });
            long burst = System.nanoTime();
            for (int i = 0; i < pods; i++) {
                String name = "p" + i;
                created.put(name, System.nanoTime());
                client.pods()
                        .inNamespace("bench")
                        .resource(new PodBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withNewSpec()
                                .withNodeName("node-" + (1 + i % nodes))
                                .addNewContainer()
                                .withName("c")
                                .withImage("x")
                                .endContainer()
                                .endSpec()
                                .build())
                        .create();
                if (sequential) {
                    // one pod at a time: the latency of a pod start with nothing queued before it
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (created.containsKey(name) && System.nanoTime() < deadline) Thread.sleep(2);
                }
            }
            boolean all = ready.await(300, TimeUnit.SECONDS);
            double burstSeconds = (System.nanoTime() - burst) / 1e9;
            informer.close();
            List<Double> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            System.out.printf("sandbox up (%d nodes): %.1f s%n", nodes, upSeconds);
            System.out.printf(
                    "pods ready: %d/%d in %.1f s (%s)%n",
                    sorted.size(),
                    pods,
                    burstSeconds,
                    sequential ? "created one after another" : "burst of " + pods + " creations");
            System.out.printf(
                    "pod creation -> Running with IP: p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                    pct(sorted, 50), pct(sorted, 90), pct(sorted, 99), sorted.isEmpty() ? 0 : sorted.getLast());
            if (!all) System.out.println("NOT ALL PODS BECAME READY within 300 s");
        } finally {
            if (sandbox != null) sandbox.close();
            Leftovers.cleanup(prefix, dir);
        }
        System.exit(0);
    }

    private static double pct(List<Double> sorted, int p) {
        if (sorted.isEmpty()) return 0;
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
