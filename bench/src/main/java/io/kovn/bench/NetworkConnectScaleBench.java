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
import io.kovn.ovsdb.data.Row;
import io.kovn.runtime.testing.OvnDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 32's benchmark: {@value #NETWORKS} Layer3 networks (10.100.0.0/16 up, apart) × {@value #NODES} nodes in one
 * ClusterNetworkConnect, on a real control plane; the node process started as deployed ({@link NodeProcess}) on zone
 * {@code node-0}, its NB watched from this JVM. The benchmark writes what the cluster manager would (networks accepted
 * with their node subnets; the CNC's tunnel key and a /24 block per network), so the zone alone is measured. Each run:
 * the networks' rows first (not measured), then the CNC created → its rows written (the NB then quiet for
 * {@value #QUIET_MS} ms); the CNC's rows in the zone, the connect router's routes against the specification's estimate
 * (one per node subnet per network), and a raw load of the same rows in one transact in the same run.
 *
 * <pre>
 * scripts/bench.sh NetworkConnectScaleBench [--runs 5]
 * </pre>
 */
public final class NetworkConnectScaleBench {
    static final int NETWORKS = 50;
    static final int NODES = 20;
    static final long QUIET_MS = 1000;
    /** The networks' own rows in one zone (NetworkScaleBench). */
    static final int NETWORK_ROWS = NETWORKS * (8 + 2 * (NODES - 1));
    /** The CNC's rows: the router, a port pair and a route per network, a policy and a route per ordered pair. */
    static final int CNC_ROWS = 1 + 3 * NETWORKS + 2 * NETWORKS * (NETWORKS - 1);

    private final SeriesFigures figures = new SeriesFigures();

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        int runs = SeriesFigures.runs(args);
        Path root = Path.of(System.getProperty("kovn.root", ".")).toAbsolutePath();
        List<String> command = NodeProcess.deployedCommand(root);
        Path logs = Files.createTempDirectory("kovn-connect-scale-");
        System.out.printf(
                "load average %s; %d cores; node logs in %s%n",
                BenchStats.loadAverage(), Runtime.getRuntime().availableProcessors(), logs);
        NetworkConnectScaleBench bench = new NetworkConnectScaleBench();
        try (ApiServer api = ApiServer.start();
                KubernetesClient client = api.newClient()) {
            for (int run = 1; run <= runs; run++) {
                bench.run(run, api, client, command, logs);
            }
        }
        bench.figures.print("NetworkConnectScaleBench", runs);
        System.exit(0);
    }

    private void run(int run, ApiServer api, KubernetesClient client, List<String> command, Path logs)
            throws Exception {
        api.reset();
        for (int k = 0; k < NODES; k++) {
            Map<String, String> a =
                    new HashMap<>(PolicyBenchCluster.nodeAnnotations(k, "172.18." + (k / 250) + "." + (k % 250 + 2)));
            StringBuilder subnets = new StringBuilder("{\"default\":[\"10.244." + k + ".0/24\"]");
            for (int n = 0; n < NETWORKS; n++) {
                subnets.append(",\"")
                        .append(network(n))
                        .append("\":[\"10.")
                        .append(100 + n)
                        .append('.')
                        .append(k)
                        .append(".0/24\"]");
            }
            a.put(OvnAnnotations.NODE_SUBNETS, subnets.append('}').toString());
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("node-" + k)
                            .withAnnotations(a)
                            .endMetadata()
                            .build())
                    .create();
        }
        StringBuilder blocks = new StringBuilder("{");
        for (int n = 0; n < NETWORKS; n++) {
            String ns = "udn-" + n;
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .addToLabels("k8s.ovn.org/primary-user-defined-network", "")
                            .addToLabels("connect", "all")
                            .endMetadata()
                            .build())
                    .create();
            var resource = client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                    .inNamespace(ns);
            resource.resource(
                            Serialization.unmarshal("""
                    apiVersion: k8s.ovn.org/v1
                    kind: UserDefinedNetwork
                    metadata: {name: net, namespace: %s, annotations: {k8s.ovn.org/network-id: "%d"}}
                    spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.%d.0.0/16}]}}
                    """.formatted(ns, n + 1, 100 + n), GenericKubernetesResource.class))
                    .create();
            resource.withName("net").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), """
                    {"status":{"conditions":[{"type":"NetworkCreated","status":"True","reason":"NetworkCreated",
                    "message":"bench","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""");
            blocks.append(n == 0 ? "" : ",")
                    .append("\"layer3_")
                    .append(n + 1)
                    .append("\":{\"ipv4\":\"192.168.")
                    .append(n)
                    .append(".0/24\"}");
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
            nb.awaitStable(c -> count(c, "-network-controller") >= NETWORK_ROWS, QUIET_MS, 180_000);
            nb.reset(); // the CNC's rows must arrive as updates after this (the cache may hold them before the
            // watch counts them)
            long t0 = System.nanoTime();
            client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                    .resource(Serialization.unmarshal("""
                    apiVersion: k8s.ovn.org/v1
                    kind: ClusterNetworkConnect
                    metadata:
                      name: all
                      annotations: {k8s.ovn.org/connect-router-tunnel-key: "16715779", k8s.ovn.org/network-connect-subnet: '%s}'}
                    spec:
                      networkSelectors:
                      - networkSelectionType: PrimaryUserDefinedNetworks
                        primaryUserDefinedNetworkSelector: {namespaceSelector: {matchLabels: {connect: all}}}
                      connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]
                      connectivity: [PodNetwork]
                    """.formatted(blocks), GenericKubernetesResource.class))
                    .create();
            long stable = nb.awaitStable(
                    c -> count(c, "ovnkube-network-connect-controller") >= CNC_ROWS, 1, QUIET_MS, 180_000);
            figures.add("CNC created → its rows written in the zone (ms)", ms(stable - t0));
            figures.add("rows of the CNC in the zone", count(nb.cache(), "ovnkube-network-connect-controller"));
            figures.add(
                    "routes on the connect router (specification's estimate: networks × nodes = " + NETWORKS * NODES
                            + ")",
                    nb.cache().table("Logical_Router_Static_Route").rows().stream()
                            .filter(r -> "0".equals(r.stringMap("external_ids").get("node-id")))
                            .count());
            RawCopy.Load load =
                    RawCopy.medianOf3Rows(nb.cache(), (t, r) -> owned(r, "ovnkube-network-connect-controller"));
            figures.add("raw load of the same rows, one transact (ms, median of 3)", ms(load.wallNs()));
            figures.add("ratio: CNC created → rows written / raw load", ms(stable - t0) / ms(load.wallNs()));
        }
        System.out.printf("run %d done: %s%n", run, figures.last());
    }

    private static String network(int n) {
        return "udn-" + n + "_net";
    }

    private static boolean owned(Row r, String controllerSuffix) {
        Object ids = r.get("external_ids");
        if (!(ids instanceof Map<?, ?> m) || !(m.get("k8s.ovn.org/owner-controller") instanceof String owner))
            return false;
        return owner.endsWith(controllerSuffix);
    }

    private static long count(MonitorCache c, String controllerSuffix) {
        long n = 0;
        for (String t : List.of(
                "Logical_Switch",
                "Logical_Switch_Port",
                "Logical_Router",
                "Logical_Router_Port",
                "Logical_Router_Static_Route",
                "Logical_Router_Policy")) {
            n += c.table(t).rows().stream()
                    .filter(r -> owned(r, controllerSuffix))
                    .count();
        }
        return n;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
