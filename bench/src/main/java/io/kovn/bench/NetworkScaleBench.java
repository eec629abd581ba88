package io.kovn.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.client.KovnResources;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.runtime.testing.OvnDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Issue 31's network benchmark: {@value #NETWORKS} user-defined Layer3 networks × {@value #NODES} nodes on a real
 * control plane; the node process started as deployed ({@link NodeProcess}) on an empty zone ({@code node-0}), its NB
 * watched from this JVM. The benchmark writes what the cluster manager would (each network accepted: its id annotation
 * and {@code NetworkCreated=True}; every node's subnet of every network in {@code node-subnets}), so the zone alone is
 * measured. Each run: process start → every network's rows written (the NB then quiet for {@value #QUIET_MS} ms), the
 * rows per zone, and a raw load of the zone's whole NB in one transact ({@link RawCopy}) in the same run (it also holds
 * the default network's few rows: the baseline is slightly larger).
 *
 * <pre>
 * scripts/bench.sh NetworkScaleBench [--runs 5]
 * </pre>
 */
public final class NetworkScaleBench {
    static final int NETWORKS = 50;
    static final int NODES = 20;
    static final long QUIET_MS = 1000;
    /** A network's rows in one zone: 8 of its own, a transit port and a route per remote node. */
    static final int ROWS_PER_NETWORK = 8 + 2 * (NODES - 1);
    /** The tables a network's rows are in. */
    private static final Set<String> TABLES = Set.of(
            "Logical_Switch",
            "Logical_Switch_Port",
            "Logical_Router",
            "Logical_Router_Port",
            "Logical_Router_Static_Route");

    private final SeriesFigures figures = new SeriesFigures();

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        int runs = SeriesFigures.runs(args);
        Path root = Path.of(System.getProperty("kovn.root", ".")).toAbsolutePath();
        List<String> command = NodeProcess.deployedCommand(root);
        Path logs = Files.createTempDirectory("kovn-network-scale-");
        System.out.printf(
                "load average %s; %d cores; node logs in %s%n",
                BenchStats.loadAverage(), Runtime.getRuntime().availableProcessors(), logs);
        NetworkScaleBench bench = new NetworkScaleBench();
        try (ApiServer api = ApiServer.start();
                KubernetesClient client = api.newClient()) {
            for (int run = 1; run <= runs; run++) {
                bench.run(run, api, client, command, logs);
            }
        }
        bench.figures.print("NetworkScaleBench", runs);
        System.exit(0);
    }

    private void run(int run, ApiServer api, KubernetesClient client, List<String> command, Path logs)
            throws Exception {
        api.reset();
        for (int k = 0; k < NODES; k++) {
            String name = "node-" + k;
            Map<String, String> a =
                    new HashMap<>(PolicyBenchCluster.nodeAnnotations(k, "172.18." + (k / 250) + "." + (k % 250 + 2)));
            StringBuilder subnets = new StringBuilder("{\"default\":[\"10.244." + k + ".0/24\"]");
            for (int n = 0; n < NETWORKS; n++)
                subnets.append(",\"")
                        .append(network(n))
                        .append("\":[\"172.20.")
                        .append(k)
                        .append(".0/24\"]");
            a.put(OvnAnnotations.NODE_SUBNETS, subnets.append('}').toString());
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withAnnotations(a)
                            .endMetadata()
                            .build())
                    .create();
        }
        for (int n = 0; n < NETWORKS; n++) {
            String ns = "udn-" + n;
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .addToLabels("k8s.ovn.org/primary-user-defined-network", "")
                            .endMetadata()
                            .build())
                    .create();
            GenericKubernetesResource udn =
                    Serialization.unmarshal("""
                    apiVersion: k8s.ovn.org/v1
                    kind: UserDefinedNetwork
                    metadata: {name: net, namespace: %s, annotations: {k8s.ovn.org/network-id: "%d"}}
                    spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 172.20.0.0/16}]}}
                    """.formatted(ns, n + 1), GenericKubernetesResource.class);
            var resource = client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                    .inNamespace(ns);
            resource.resource(udn).create();
            resource.withName("net").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), """
                    {"status":{"conditions":[{"type":"NetworkCreated","status":"True","reason":"NetworkCreated",
                    "message":"bench","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""");
        }
        try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                NorthboundWatch nb = NorthboundWatch.connect(db.nb().unixEndpoint());
                NodeProcess node = NodeProcess.start(
                        command,
                        "node-0",
                        api.adminKubeconfig(),
                        db.nb().unixEndpoint(),
                        db.sb().unixEndpoint(),
                        logs.resolve("run" + run + ".log"))) {
            long stable = nb.awaitStable(c -> networkRows(c) >= (long) NETWORKS * ROWS_PER_NETWORK, QUIET_MS, 180_000);
            figures.add(
                    "from scratch: process start → every network's rows written (ms)", ms(stable - node.startNanos()));
            double started = node.markMs("networks started");
            figures.add(
                    "from scratch: network controller started (log) → every network's rows written (ms)",
                    ms(stable - node.startNanos()) - started);
            figures.add("rows of the networks in the zone", networkRows(nb.cache()));
            RawCopy.Load load = RawCopy.medianOf3(nb.cache(), t -> true);
            figures.add("raw load of the zone's whole NB, one transact (ms, median of 3)", ms(load.wallNs()));
            figures.add("rows in that load", load.rows());
            figures.add(
                    "ratio: process start → every network written / raw load",
                    ms(stable - node.startNanos()) / ms(load.wallNs()));
            figures.add(
                    "ratio: network controller started → every network written / raw load",
                    (ms(stable - node.startNanos()) - started) / ms(load.wallNs()));
        }
        System.out.printf("run %d done: %s%n", run, figures.last());
    }

    private static String network(int n) {
        return "udn-" + n + "_net";
    }

    /** Rows owned by a user-defined network's controller. */
    private static long networkRows(MonitorCache c) {
        long n = 0;
        for (String t : TABLES) {
            n += c.table(t).rows().stream()
                    .filter(r -> {
                        String owner = r.stringMap("external_ids").get("k8s.ovn.org/owner-controller");
                        return owner != null && owner.startsWith("udn-") && owner.endsWith("-network-controller");
                    })
                    .count();
        }
        return n;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
