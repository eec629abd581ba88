package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.zone.ReconcileTimes;
import io.kovn.controller.zone.ZoneController;
import io.kovn.controller.zone.ZoneControllerConfig;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * Zone controller scale on a real NB/SB (ovsdb-server, no northd: control-plane time only), on a real control plane
 * ({@link ApiServer}; kube-apiserver and etcd are processes of their own).
 *
 * <ol>
 *   <li>Convergence from scratch: 100 nodes, 5,000 pods of which 50 on the zone's node; time from
 *       {@link ZoneController#start} to all rows present; heap of the zone controller (difference of used heap after
 *       GC, before and after); pod add latency at steady state (pod created → its port in the zone's NB cache, and the
 *       pod-add path's own reconciles: the per-pod port reconciles, whole and compute), transactions and operations per
 *       pod add, and how many topology reconciles the adds caused (none expected).
 *   <li>Trust zones: 200 nodes in 10 disjoint zones plus 2 gateway nodes in all zones; SB Chassis rows and remote
 *       transit ports of a member zone and of a gateway zone versus the full mesh; time for both zones to converge
 *       after one node moves between zones.
 * </ol>
 *
 * <pre>
 * scripts/bench.sh ZoneConvergenceBench
 * </pre>
 */
public final class ZoneConvergenceBench {
    private ZoneConvergenceBench() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.out.printf("load average at start: %s%n", BenchStats.loadAverage());
        try (ApiServer api = ApiServer.start()) {
            convergence(api, 100, 5_000, 50, 200);
            api.reset();
            trustZones(api, 200, 10, 2);
        }
        System.out.printf("load average at end: %s%n", BenchStats.loadAverage());
        System.exit(0);
    }

    static void convergence(ApiServer api, int nodes, int pods, int localPods, int adds) throws Exception {
        try (KubernetesClient client = api.newClient();
                OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb())) {
            api.createNamespace("bench", Map.of());
            for (int i = 0; i < nodes; i++) {
                BenchClusters.node(client, "node-" + i, i, null);
            }
            createPods(client, nodes, pods, localPods);
            long heapBefore = BenchStats.usedHeapAfterGc();
            long t0 = System.nanoTime();
            ZoneController zone = ZoneController.start(
                    ZoneControllerConfig.of(
                            "node-0", db.nb().unixEndpoint(), db.sb().unixEndpoint()),
                    client);
            // node switch router port + management port + local transit port, a remote port per node, pods
            int expectedPorts = 3 + (nodes - 1) + localPods;
            waitFor(
                    () -> zone.databases()
                                            .nbCache()
                                            .table("Logical_Switch_Port")
                                            .size()
                                    == expectedPorts
                            && zone.databases().sbCache().table("Chassis").size() == nodes - 1
                            && subnetRoutes(zone) == nodes - 1,
                    120_000);
            long convergeMs = (System.nanoTime() - t0) / 1_000_000;
            waitFor(zone::idle, 10_000);
            long heap = BenchStats.usedHeapAfterGc() - heapBefore;
            System.out.printf(
                    "convergence: %d nodes, %d pods (%d local): %d ms; NB %s, SB %s; zone heap ~%d MB%n",
                    nodes,
                    pods,
                    localPods,
                    convergeMs,
                    zone.databases().nbCounters().snapshot(),
                    zone.databases().sbCounters().snapshot(),
                    heap >> 20);

            BenchStats.waitQuiet(zone::idle, 200, 10_000);
            TrafficCounters.Snapshot nb0 = zone.databases().nbCounters().snapshot();
            TrafficCounters.Snapshot sb0 = zone.databases().sbCounters().snapshot();
            long portsBefore = zone.podPorts().times().count();
            long topologyBefore = zone.topology().reconciles();
            long[] e2e = new long[adds];
            for (int i = 0; i < adds; i++) {
                String name = "add-" + i;
                int before =
                        zone.databases().nbCache().table("Logical_Switch_Port").size();
                long s = System.nanoTime();
                client.pods()
                        .inNamespace("bench")
                        .resource(pod(name, "node-0", null))
                        .create();
                waitFor(
                        () -> zone.databases()
                                        .nbCache()
                                        .table("Logical_Switch_Port")
                                        .size()
                                == before + 1,
                        10_000);
                e2e[i] = System.nanoTime() - s;
                // the port's own monitor update re-queues its pod once more (a no-op): let it pass
                BenchStats.waitQuiet(zone::idle, 20, 10_000);
            }
            TrafficCounters.Snapshot nb =
                    zone.databases().nbCounters().snapshot().minus(nb0);
            TrafficCounters.Snapshot sb =
                    zone.databases().sbCounters().snapshot().minus(sb0);
            List<ReconcileTimes.Sample> all = zone.podPorts().times().recent();
            List<ReconcileTimes.Sample> rec = all.subList(
                    Math.max(0, all.size() - (int) (zone.podPorts().times().count() - portsBefore)), all.size());
            List<ReconcileTimes.Sample> writing =
                    rec.stream().filter(r -> r.operations() > 0).toList();
            System.out.printf(
                    "pod add (%d, steady state): end-to-end p50 %.1f ms p99 %.1f ms; per-pod port reconcile"
                            + " (all %d) p50 %.2f ms p99 %.2f ms, compute p50 %.2f ms p99 %.2f ms; writing ones (%d)"
                            + " p50 %.2f ms p99 %.2f ms, compute p50 %.2f ms p99 %.2f ms; topology reconciles %d;"
                            + " per pod: %.2f NB txn, %.2f NB ops, %.2f SB txn%n",
                    adds,
                    BenchStats.pct(e2e, 50) / 1e6,
                    BenchStats.pct(e2e, 99) / 1e6,
                    rec.size(),
                    pct(whole(rec), 50),
                    pct(whole(rec), 99),
                    pct(compute(rec), 50),
                    pct(compute(rec), 99),
                    writing.size(),
                    pct(whole(writing), 50),
                    pct(whole(writing), 99),
                    pct(compute(writing), 50),
                    pct(compute(writing), 99),
                    zone.topology().reconciles() - topologyBefore,
                    nb.transactions() / (double) adds,
                    nb.operations() / (double) adds,
                    sb.transactions() / (double) adds);
            zone.close();
        }
    }

    static void trustZones(ApiServer api, int members, int zones, int gateways) throws Exception {
        try (KubernetesClient client = api.newClient();
                OvnDatabases memberDb = OvnDatabases.start(OvnDatabases.Config.nbSb());
                OvnDatabases gatewayDb = OvnDatabases.start(OvnDatabases.Config.nbSb())) {
            StringBuilder all = new StringBuilder();
            for (int z = 0; z < zones; z++) {
                all.append(z == 0 ? "" : ",").append("\"tz").append(z).append('"');
            }
            for (int i = 0; i < members; i++) {
                BenchClusters.node(client, "node-" + i, i, "{\"__default\":[\"tz" + (i % zones) + "\"]}");
            }
            for (int g = 0; g < gateways; g++) {
                BenchClusters.node(client, "gw-" + g, members + g, "{\"__default\":[" + all + "]}");
            }
            int total = members + gateways;
            ZoneController member = ZoneController.start(
                    ZoneControllerConfig.of(
                            "node-0",
                            memberDb.nb().unixEndpoint(),
                            memberDb.sb().unixEndpoint()),
                    client);
            ZoneController gateway = ZoneController.start(
                    ZoneControllerConfig.of(
                            "gw-0",
                            gatewayDb.nb().unixEndpoint(),
                            gatewayDb.sb().unixEndpoint()),
                    client);
            int memberRemotes = members / zones - 1 + gateways;
            waitFor(
                    () -> member.databases().sbCache().table("Chassis").size() == memberRemotes
                            && gateway.databases().sbCache().table("Chassis").size() == total - 1,
                    60_000);
            waitFor(() -> member.idle() && gateway.idle(), 10_000);
            System.out.printf(
                    "trust zones: %d nodes in %d zones + %d gateways; member zone: %d SB Chassis, %d remote ports;"
                            + " gateway zone: %d SB Chassis, %d remote ports; full mesh: %d each%n",
                    members,
                    zones,
                    gateways,
                    member.databases().sbCache().table("Chassis").size(),
                    remotePorts(member),
                    gateway.databases().sbCache().table("Chassis").size(),
                    remotePorts(gateway),
                    total - 1);
            // node-1 (tz1) moves to tz0: joins node-0's zone; the gateway keeps it.
            long s = System.nanoTime();
            BenchClusters.annotate(client, "node-1", OvnAnnotations.TRUST_ZONES, "{\"__default\":[\"tz0\"]}");
            waitFor(() -> member.databases().sbCache().table("Chassis").size() == memberRemotes + 1, 10_000);
            long memberMs = (System.nanoTime() - s) / 1_000_000;
            waitFor(() -> member.idle() && gateway.idle(), 10_000);
            long gwMs = (System.nanoTime() - s) / 1_000_000;
            // ... and leaves again.
            long s2 = System.nanoTime();
            BenchClusters.annotate(client, "node-1", OvnAnnotations.TRUST_ZONES, "{\"__default\":[\"tz1\"]}");
            waitFor(() -> member.databases().sbCache().table("Chassis").size() == memberRemotes, 10_000);
            long leaveMs = (System.nanoTime() - s2) / 1_000_000;
            System.out.printf(
                    "zone change: member zone converged %d ms after a node joined, %d ms after it left;"
                            + " gateway zone idle after %d ms%n",
                    memberMs, leaveMs, gwMs);
            member.close();
            gateway.close();
        }
    }

    private static long remotePorts(ZoneController z) {
        return z.databases()
                .nbCache()
                .table("Logical_Switch_Port")
                .select(r -> "remote".equals(r.get("type")))
                .size();
    }

    private static void createPods(KubernetesClient client, int nodes, int pods, int localPods) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> f = new ArrayList<>();
            for (int i = 0; i < pods; i++) {
                final int n = i;
                f.add(pool.submit(() -> {
                    if (n < localPods) {
                        client.pods()
                                .inNamespace("bench")
                                .resource(pod("local-" + n, "node-0", null))
                                .create();
                    } else {
                        int node = 1 + n % (nodes - 1);
                        int host = 2 + n / (nodes - 1);
                        String ip = "10.244." + node + "." + host;
                        String mac = String.format("0a:58:0a:f4:%02x:%02x", node, host);
                        String ann = "{\"default\":{\"ip_addresses\":[\"" + ip + "/24\"],\"mac_address\":\"" + mac
                                + "\",\"gateway_ips\":[\"10.244." + node + ".1\"],\"routes\":[],\"role\":\"primary\"}}";
                        client.pods()
                                .inNamespace("bench")
                                .resource(pod("remote-" + n, "node-" + node, ann))
                                .create();
                    }
                }));
            }
            for (Future<?> x : f) {
                x.get();
            }
        }
    }

    static Pod pod(String name, String node, String podNetworks) {
        Map<String, String> ann = new HashMap<>();
        if (podNetworks != null) {
            ann.put(OvnAnnotations.POD_NETWORKS, podNetworks);
        }
        return ApiServer.withoutKubelet(new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("bench")
                .withAnnotations(ann)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("c")
                .withImage("x")
                .endContainer()
                .endSpec()
                .build());
    }

    /** Routes to remote node subnets (the node-IP /32 routes of the management port aside). */
    private static long subnetRoutes(ZoneController zone) {
        return zone.databases().nbCache().table("Logical_Router_Static_Route").rows().stream()
                .filter(r -> !String.valueOf(r.get("ip_prefix")).endsWith("/32"))
                .count();
    }

    private static void waitFor(BooleanSupplier condition, long timeoutMs) throws InterruptedException {
        BenchStats.waitFor(condition, timeoutMs);
    }

    private static long[] whole(List<ReconcileTimes.Sample> samples) {
        return samples.stream().mapToLong(ReconcileTimes.Sample::nanos).toArray();
    }

    private static long[] compute(List<ReconcileTimes.Sample> samples) {
        return samples.stream()
                .mapToLong(ReconcileTimes.Sample::computeNanos)
                .filter(n -> n >= 0)
                .toArray();
    }

    /** Percentile in ms. */
    private static double pct(long[] nanos, int p) {
        return BenchStats.pct(nanos, p) / 1e6;
    }
}
