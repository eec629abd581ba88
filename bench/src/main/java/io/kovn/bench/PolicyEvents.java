package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.controller.policy.PolicyController;
import io.kovn.controller.policy.PolicyReconciler;
import io.kovn.controller.zone.ZoneController;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.policy.model.PolicySnapshot;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Per-event cost of a converged zone's policy controller: pod label changes and local pod churn, each one at a time,
 * end to end (API write → a bystander's NB monitor shows the change), with the NB transactions and operations the
 * policy controller sent and the policy rows that changed.
 */
final class PolicyEvents {
    /**
     * The cost of {@code count} events of one kind.
     *
     * @param e2eNs end-to-end latency of each event
     * @param reconcileNs the policy reconciles that ran meanwhile
     * @param queueToDoneNs the same reconciles' queue-to-done times: from the first event queued since the previous
     *     reconcile started until this one returned, its NB transaction acknowledged
     * @param nb the policy controller's NB traffic for all events
     * @param changedRows address set and port group rows the events changed (seen by the bystander)
     * @param zoneOps the zone controller's NB operations for all events
     * @param jvmCpuNs this JVM's CPU for all events
     * @param apiCpuNs kube-apiserver's and etcd's CPU for all events
     * @param serverCpuNs the NB server's CPU for all events
     * @param threads this JVM's busiest threads' CPU per event
     * @param gc this JVM's garbage collections during the events
     */
    record Cost(
            String name,
            int count,
            long[] e2eNs,
            long[] reconcileNs,
            long[] queueToDoneNs,
            TrafficCounters.Snapshot nb,
            long changedRows,
            long zoneOps,
            long jvmCpuNs,
            long apiCpuNs,
            long serverCpuNs,
            String threads,
            String gc) {
        double txnPerEvent() {
            return nb.transactions() / (double) count;
        }

        double opsPerEvent() {
            return nb.writeOperations() / (double) count;
        }

        double rowsPerEvent() {
            return changedRows / (double) count;
        }
    }

    private final KubernetesClient client;
    private final PolicyController policies;
    private final ReconcileRecorder reconciles;
    private final ZoneController zone;
    private final NorthboundObserver observer;
    private final PolicyBenchCluster cluster;
    private final long nbPid;
    private final ApiServer api;
    /** Each relabelled pod's labels as last written (series go on from where the last one left off). */
    private final Map<String, Map<String, String>> current = new HashMap<>();
    /** The last reconcile's phases after each relabel. */
    final List<PolicyReconciler.Phases> phases = new ArrayList<>();
    /**
     * The policy controller's NB write operations in the last relabel series: of pods on the zone's node, on another.
     */
    private final long[] writeOps = new long[2];
    /**
     * The address set, port group and ACL changes of the last relabel of a pod on the zone's node, as the observer saw
     * them.
     */
    private List<RowChange> zoneNodeRelabel = List.of();
    /** The NB server's CPU (ns) over each relabel of the last series, until the controller was idle again. */
    private final List<Long> serverCpu = new ArrayList<>();

    /**
     * The last relabel series by where the pod runs: the even relabels are of pods on the zone's node (their
     * NetworkPolicy port group changes too; and their namespaces, like every namespace of the zone's node, are
     * {@code tier0}, whose pods every ANP's egress rule 5 selects by role: 141 address sets change, against 41 for the
     * odd ones, of pods on another node in {@code tier3} namespaces). Queue-to-done p50 / p90 / p99, the median NB
     * transaction, and the NB server's CPU per relabel (its work for the transaction and for sending the update to each
     * monitor) of each half, when each relabel had one reconcile.
     */
    String relabelsByNode(Cost series) {
        long[] all = series.queueToDoneNs();
        if (all.length != series.count() || phases.size() != series.count()) {
            return "n/a (" + all.length + " reconciles for " + series.count() + " relabels)";
        }
        StringBuilder out = new StringBuilder();
        for (int parity = 0; parity < 2; parity++) {
            int p = parity;
            long[] half = IntStream.range(0, all.length)
                    .filter(i -> i % 2 == p)
                    .mapToLong(i -> all[i])
                    .toArray();
            long[] transact = IntStream.range(0, phases.size())
                    .filter(i -> i % 2 == p)
                    .mapToLong(i -> phases.get(i).transact())
                    .toArray();
            long[] translate = IntStream.range(0, phases.size())
                    .filter(i -> i % 2 == p)
                    .mapToLong(i -> phases.get(i).translate())
                    .toArray();
            long[] server = IntStream.range(0, serverCpu.size())
                    .filter(i -> i % 2 == p)
                    .mapToLong(serverCpu::get)
                    .toArray();
            out.append(parity == 0 ? "on the zone's node: " : "; on another node: ")
                    .append(String.format(
                            "%.1f / %.1f / %.1f ms (translate %.2f, NB transaction %.2f ms, NB server CPU p50 / p90 %.2f / %.2f ms;"
                                    + " %.1f write ops)",
                            BenchStats.pct(half, 50) / 1e6,
                            BenchStats.pct(half, 90) / 1e6,
                            BenchStats.pct(half, 99) / 1e6,
                            median(translate),
                            median(transact),
                            BenchStats.pct(server, 50) / 1e6,
                            BenchStats.pct(server, 90) / 1e6,
                            writeOps[p] / (double) half.length));
            if (parity == 0 && server.length == half.length) {
                // is a slow one the server's own work, or waiting for a core?
                out.append(" (the 5 slowest: queued → written / translate / NB transaction / NB server CPU: ");
                out.append(IntStream.range(0, half.length)
                        .boxed()
                        .sorted(Comparator.comparingLong((Integer i) -> half[i]).reversed())
                        .limit(5)
                        .map(i -> String.format(
                                "%.1f/%.1f/%.1f/%.1f",
                                half[i] / 1e6, translate[i] / 1e6, transact[i] / 1e6, server[i] / 1e6))
                        .collect(Collectors.joining(", ")));
                out.append(" ms)");
            }
        }
        return out.toString();
    }

    /** What the last relabel of a pod on the zone's node changed in the NB (one transaction's rows). */
    List<RowChange> zoneNodeRelabel() {
        return zoneNodeRelabel;
    }

    /** Median of each phase of the relabel reconciles, in ms. */
    String relabelPhases() {
        return String.format(
                        "snapshot %.2f / translate %.2f / diff+write %.2f (of which the NB transaction %.2f) / publish %.2f ms",
                        median(phases.stream().mapToLong(p -> p.snapshot()).toArray()),
                        median(phases.stream().mapToLong(p -> p.translate()).toArray()),
                        median(phases.stream().mapToLong(p -> p.write()).toArray()),
                        median(phases.stream().mapToLong(p -> p.transact()).toArray()),
                        median(phases.stream().mapToLong(p -> p.publish()).toArray()))
                + "; the 3 slowest (snapshot/translate/diff+write/NB transaction/publish): "
                + phases.stream()
                        .sorted(Comparator.comparingLong((PolicyReconciler.Phases p) ->
                                        p.snapshot() + p.translate() + p.write() + p.publish())
                                .reversed())
                        .limit(3)
                        .map(p -> String.format(
                                "%.1f/%.1f/%.1f/%.1f/%.1f",
                                p.snapshot() / 1e6,
                                p.translate() / 1e6,
                                p.write() / 1e6,
                                p.transact() / 1e6,
                                p.publish() / 1e6))
                        .collect(Collectors.joining(", "))
                + " ms";
    }

    private static double median(long[] ns) {
        if (ns.length == 0) {
            return 0;
        }
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    PolicyEvents(
            KubernetesClient client,
            PolicyController policies,
            ReconcileRecorder reconciles,
            ZoneController zone,
            NorthboundObserver observer,
            PolicyBenchCluster cluster,
            long nbPid,
            ApiServer api) {
        this.nbPid = nbPid;
        this.api = api;
        this.client = client;
        this.policies = policies;
        this.reconciles = reconciles;
        this.zone = zone;
        this.observer = observer;
        this.cluster = cluster;
    }

    /**
     * Relabels {@code count} pods one at a time, half on the zone's node and half on another node: {@code app aN →
     * a(N+1)} and {@code role r0 ↔ r1}, so each changes its NetworkPolicy subject or peer membership and which ANP pod
     * peers select it.
     */
    Cost relabel(int count) throws InterruptedException {
        return relabel("pod relabel", count);
    }

    /** The same, under another name (a warm-up series); the phases kept are this series' only. */
    Cost relabel(String name, int count) throws InterruptedException {
        int namespaces = cluster.namespaces().size();
        Arrays.fill(writeOps, 0);
        // to line up JIT logs (-XX:+PrintCompilation) and recordings with the series
        System.err.printf(
                "[bench] %s: from JVM uptime %d ms%n",
                name, ManagementFactory.getRuntimeMXBean().getUptime());
        phases.clear();
        serverCpu.clear();
        Mark mark = new Mark();
        long[] e2e = new long[count];
        for (int i = 0; i < count; i++) {
            int ns = i % 2 == 0 ? (10 * i) % namespaces : (10 * i + 3) % namespaces; // node-0, node-3
            Pod pod = cluster.pods().get(ns * 20 + (i / 2) % 20);
            Map<String, String> labels = current.computeIfAbsent(
                    pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
                    k -> new HashMap<>(pod.getMetadata().getLabels()));
            int app = Integer.parseInt(labels.get("app").substring(1));
            int role = Integer.parseInt(labels.get("role").substring(1));
            labels.put("app", "a" + (app + 1) % 5);
            labels.put("role", "r" + (1 - role));
            String patch = "{\"metadata\":{\"labels\":{\"app\":\"" + labels.get("app") + "\",\"role\":\""
                    + labels.get("role") + "\"}}}";
            long v = observer.version();
            long ops0 = policies.northbound().counters().snapshot().writeOperations();
            long server0 = RawBaseline.processCpu(nbPid);
            long s = System.nanoTime();
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            e2e[i] = observer.awaitUpdateAfter(v, 30_000) - s;
            BenchStats.waitQuiet(policies::idle, 20, 30_000);
            serverCpu.add(RawBaseline.processCpu(nbPid) - server0);
            if (i % 2 == 0) {
                zoneNodeRelabel = observer.lastPolicyChanges();
            }
            phases.add(reconciles.lastPhases());
            writeOps[i % 2] += policies.northbound().counters().snapshot().writeOperations() - ops0;
        }
        return mark.cost(name, count, e2e);
    }

    /** Creates {@code count} pods on the zone's node one at a time, then deletes them one at a time. */
    List<Cost> churn(int count) throws InterruptedException {
        Pod template = cluster.localPods().getFirst(); // ns-0 pod-0: app a0 (its NetworkPolicy's subject), role r0
        Pod[] pods = new Pod[count];
        Mark mark = new Mark();
        long[] add = new long[count];
        for (int c = 0; c < count; c++) {
            Pod named = new PodBuilder(template)
                    .editMetadata()
                    .withName("churn-" + c)
                    .withAnnotations(new HashMap<>())
                    .endMetadata()
                    .build();
            pods[c] = PolicyBenchCluster.pod(named, 0, 50_000 + c);
            String port = PolicySnapshot.portName(
                    named.getMetadata().getNamespace(), named.getMetadata().getName());
            String ip = pods[c].getStatus().getPodIP();
            long s = System.nanoTime();
            PolicyBenchCluster.createPod(client, pods[c]);
            add[c] = observer.await(
                            nb -> NorthboundObserver.port(nb, port)
                                            .filter(u -> NorthboundObserver.inSomePortGroup(nb, u))
                                            .isPresent()
                                    && NorthboundObserver.inSomeAddressSet(nb, ip),
                            30_000)
                    - s;
            BenchStats.waitQuiet(() -> policies.idle() && zone.idle(), 20, 30_000);
        }
        Cost adds = mark.cost("local pod add", count, add);
        mark = new Mark();
        long[] del = new long[count];
        for (int c = 0; c < count; c++) {
            Pod p = pods[c];
            String port = PolicySnapshot.portName(
                    p.getMetadata().getNamespace(), p.getMetadata().getName());
            String ip = p.getStatus().getPodIP();
            long s = System.nanoTime();
            // at once, as a kubelet confirms the delete of a pod it has stopped (none runs here)
            client.pods()
                    .inNamespace(p.getMetadata().getNamespace())
                    .withName(p.getMetadata().getName())
                    .withGracePeriod(0)
                    .delete();
            del[c] = observer.await(
                            nb -> NorthboundObserver.port(nb, port).isEmpty()
                                    && !NorthboundObserver.inSomeAddressSet(nb, ip),
                            30_000)
                    - s;
            BenchStats.waitQuiet(() -> policies.idle() && zone.idle(), 20, 30_000);
        }
        return List.of(adds, mark.cost("local pod delete", count, del));
    }

    /** Counters at the start of a series of events. */
    private final class Mark {
        final TrafficCounters.Snapshot nb = policies.northbound().counters().snapshot();
        final long zoneOps = zone.databases().nbCounters().snapshot().writeOperations();
        final long rows = observer.changedRows();
        final int reconciled = reconciles.recentDurations().length;
        final int queued = policies.recentQueueToDone().length;
        final long jvmCpu = BenchStats.jvmCpu();
        final long apiCpu = api.cpuNanos();
        final long serverCpu = RawBaseline.processCpu(nbPid);
        final Map<String, Long> threads = BenchStats.threadTicks();
        final Map<String, long[]> gc = BenchStats.gcTotals();

        Cost cost(String name, int count, long[] e2e) {
            long[] all = reconciles.recentDurations();
            long[] allQueued = policies.recentQueueToDone();
            return new Cost(
                    name,
                    count,
                    e2e,
                    Arrays.copyOfRange(all, Math.min(reconciled, all.length), all.length),
                    Arrays.copyOfRange(allQueued, Math.min(queued, allQueued.length), allQueued.length),
                    policies.northbound().counters().snapshot().minus(nb),
                    observer.changedRows() - rows,
                    zone.databases().nbCounters().snapshot().writeOperations() - zoneOps,
                    BenchStats.jvmCpu() - jvmCpu,
                    api.cpuNanos() - apiCpu,
                    RawBaseline.processCpu(nbPid) - serverCpu,
                    BenchStats.topThreads(threads, BenchStats.threadTicks(), count, 8),
                    BenchStats.gcBetween(gc, BenchStats.gcTotals()));
        }
    }
}
