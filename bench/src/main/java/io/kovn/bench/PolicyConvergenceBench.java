package io.kovn.bench;

import static io.kovn.bench.BenchStats.ms;
import static io.kovn.bench.BenchStats.pct;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.policy.PolicyController;
import io.kovn.controller.policy.PolicyControllerConfig;
import io.kovn.controller.policy.PolicyReconciler;
import io.kovn.controller.zone.ZoneController;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.evaluator.Target;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.runtime.testing.OvnDatabases;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * The issue-5 policy benchmark: 500 namespaces x 20 pods over 10 nodes, 100 ANPs of 20 rules, a BANP, 500
 * NetworkPolicies ({@link PolicyBenchCluster}, the cluster of {@link AnalyzeBench}); the zone {@code node-0} (1,000
 * local pods) on a real NB {@code ovsdb-server} (no northd: control-plane work only), its zone controller making the
 * pods' switch ports, on a real control plane ({@link ApiServer}: kube-apiserver and etcd are processes of their own,
 * their CPU measured apart from this JVM's).
 *
 * <ol>
 *   <li>Convergence from scratch: {@link PolicyController#start} → the NB enforces every final row (a bystander's
 *       monitor holds the converged policy row counts and port group memberships; the bystander, northd's stand-in,
 *       runs in a child JVM ({@link RemoteBystander}); {@code --bystander embedded}: in this JVM, decoding the whole
 *       convergence next to the controller; it monitors what the controller does, {@code --bystander-monitor northd}:
 *       what ovn-northd does, see {@link Bystander.Watch}), and → converged (the controller idle, its status conditions
 *       also on the API server); transactions and operations; NB server CPU; controller heap (used after GC, before vs
 *       after).
 *   <li>Same run baseline: the converged policy rows copied into a fresh NB as ONE raw transact ({@link RawBaseline}),
 *       also with the same kind of bystander attached; the ratio convergence / raw.
 *   <li>Per event: pod relabels and local pod add/delete, one at a time ({@link PolicyEvents}); end to end (an NB
 *       monitor in this JVM, connected after the convergence, shows the change), and as the controller sees it (queued
 *       → reconcile done, its NB transaction acknowledged).
 *   <li>Restart with nothing changed (zero writes expected).
 *   <li>Evaluator verdicts/s over the same cluster ({@code kovn analyze}'s engine).
 * </ol>
 *
 * <pre>
 * scripts/bench.sh PolicyConvergenceBench [--scale full|small] [--relabels N] [--warmup N] [--churn N]
 *     [--bystander process|embedded] [--bystander-monitor policy|northd] [--timeline BUCKET_MS]
 * </pre>
 *
 * {@code --timeline 50} also prints, per 50 ms of the convergence and of each watched raw load, the CPU, kernel time
 * and page faults of the NB server, this JVM, kube-apiserver, etcd and the bystander ({@link ProcessTimeline}): where
 * each one's time went, and what ran beside it.
 */
public final class PolicyConvergenceBench {
    private PolicyConvergenceBench() {}

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        Bystander.Mode bystanderMode = Bystander.Mode.PROCESS;
        Bystander.Watch bystanderWatch = Bystander.Watch.POLICY;
        PolicyBenchCluster.Scale scale = PolicyBenchCluster.Scale.FULL;
        int relabels = 40;
        // relabels before the measured ones: the first few hundred events after a start run while
        // C2 compiles the event path (~34 ms of compiler CPU per event), as a new process would
        int warmup = 300;
        int churn = 20;
        long timelineMs = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scale" -> scale = PolicyBenchCluster.Scale.valueOf(args[i + 1].toUpperCase(Locale.ROOT));
                case "--relabels" -> relabels = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--churn" -> churn = Integer.parseInt(args[i + 1]);
                case "--bystander" -> bystanderMode = Bystander.Mode.of(args[i + 1]);
                case "--bystander-monitor" -> bystanderWatch = Bystander.Watch.of(args[i + 1]);
                case "--timeline" -> timelineMs = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String loadBefore = BenchStats.loadAverage();
        long started = System.nanoTime();
        PolicyBenchCluster cluster = PolicyBenchCluster.of(scale);
        int localPods = cluster.localPods().size();
        System.out.printf(
                "cluster (%s): %d namespaces, %d pods over %d nodes (%d on the zone's node), %d NetworkPolicies,"
                        + " %d ANPs x 20 rules, %d BANP; load average %s; %d cores%n",
                scale,
                cluster.namespaces().size(),
                cluster.pods().size(),
                cluster.nodes().size(),
                localPods,
                cluster.networkPolicies().size(),
                cluster.anps().size(),
                cluster.banps().size(),
                loadBefore,
                Runtime.getRuntime().availableProcessors());
        Report report = new Report();
        report.bystanderMode = bystanderMode;
        report.bystanderWatch = bystanderWatch;
        try (ApiServer api = ApiServer.start();
                KubernetesClient client = api.newClient();
                OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb());
                SharedInformers informers = new SharedInformers(client)) {
            System.out.println("API server: kube-apiserver at " + api.url() + ", processes " + api.pids());
            long t = System.nanoTime();
            cluster.create(client);
            System.out.printf("API objects created in %.1f s%n", (System.nanoTime() - t) / 1e9);
            t = System.nanoTime();
            ZoneController zone = PolicyZoneHarness.startZone(db, informers, localPods);
            int ports = 2 + (PolicyBenchCluster.NODES - 1) + localPods;
            System.out.printf(
                    "zone controller: %d switch ports in %.1f s (the ports the policy controller puts in port groups)%n",
                    ports, (System.nanoTime() - t) / 1e9);

            PolicyController policies;
            ReconcileRecorder reconciles = new ReconcileRecorder();
            try (Bystander bystander = Bystander.connect(
                            bystanderMode, bystanderWatch, db.nb().unixEndpoint());
                    ProcessTimeline timeline = timelineMs <= 0
                            ? null
                            : ProcessTimeline.start(ProcessTimeline.benchmarkProcesses(
                                    db.nb().pid().orElseThrow(), api.pids(), bystander.pid()))) {
                policies = converge(db, api, informers, report, bystander, reconciles);
                report.convergedRows =
                        RawBaseline.rowCounts(policies.northbound().cache(), ObjectId.DEFAULT_CONTROLLER);
                report.convergedMemberships =
                        RawBaseline.memberships(policies.northbound().cache(), ObjectId.DEFAULT_CONTROLLER);
                report.enforceNs = bystander.firstArrivalWith(
                                new NorthboundObserver.PolicyRows(report.convergedRows, report.convergedMemberships),
                                60_000)
                        - report.convergeStart;
                if (timeline != null) {
                    timeline.close();
                    long t0 = report.convergeStart;
                    timeline.print(
                            "convergence",
                            t0,
                            timelineMs,
                            Map.of(
                                    "started",
                                    t0 + report.startNs,
                                    "enforced",
                                    t0 + report.enforceNs,
                                    "idle",
                                    t0 + report.convergeNs,
                                    "written",
                                    t0 + report.convergeNs - report.first.publish()));
                }
            }
            report.raw = RawBaseline.load(policies.northbound().cache(), ObjectId.DEFAULT_CONTROLLER);
            PolicyZoneHarness.RawWatched watched = PolicyZoneHarness.rawWatched(
                    policies.northbound().cache(), bystanderMode, bystanderWatch, timelineMs);
            report.rawWatchedRuns = watched.wallNs();
            report.rawWatched = watched.median();
            if (!report.raw.rows().equals(report.convergedRows)
                    || report.raw.memberships() != report.convergedMemberships) {
                throw new IllegalStateException("the raw load differs from the converged NB: " + report.raw.rows() + " "
                        + report.raw.memberships() + " vs " + report.convergedRows + " " + report.convergedMemberships);
            }
            report.steady = ReconcileBreakdown.steady(cluster, policies, reconciles, 5);
            report.warm = ReconcileBreakdown.fresh(cluster, policies);
            // connected only now: during the convergence it would have decoded every row in this JVM
            try (NorthboundObserver observer =
                    NorthboundObserver.connect(db.nb().unixEndpoint())) {
                // its initial sync's garbage and new cache are collected here, not in a pause during the first events
                System.gc();
                PolicyEvents events = new PolicyEvents(
                        client,
                        policies,
                        reconciles,
                        zone,
                        observer,
                        cluster,
                        db.nb().pid().orElseThrow(),
                        api);
                report.warmup = warmup > 0
                        ? events.relabel("pod relabel, the first " + warmup + " after the start (warm-up)", warmup)
                        : null;
                report.relabel =
                        events.relabel(warmup > 0 ? "pod relabel, the next " + relabels : "pod relabel", relabels);
                report.relabelPhases = events.relabelPhases();
                report.relabelsByNode = events.relabelsByNode(report.relabel);
                report.rawRelabel = RawRelabels.replay(
                        policies.northbound().cache(), ObjectId.DEFAULT_CONTROLLER, events.zoneNodeRelabel(), relabels);
                report.churn = events.churn(churn);
                policies.close();

                PolicyZoneHarness.Restart restart = PolicyZoneHarness.restart(
                        PolicyControllerConfig.of(
                                PolicyBenchCluster.ZONE, db.nb().unixEndpoint()),
                        informers);
                report.restartMs = ms(restart.ns()) - 100;
                report.restart = restart.counters();
            }
            zone.close();
        }
        analyze(cluster, report);
        report.loadBefore = loadBefore;
        report.loadAfter = BenchStats.loadAverage();
        report.totalS = (System.nanoTime() - started) / 1e9;
        report.print(scale);
        System.exit(0);
    }

    /**
     * Starts the policy controller on the converged zone and waits until it has written everything; {@code bystander}
     * records the policy rows it holds after each update meanwhile.
     */
    private static PolicyController converge(
            OvnDatabases db,
            ApiServer api,
            SharedInformers informers,
            Report r,
            Bystander bystander,
            ReconcileRecorder reconciles)
            throws Exception {
        long heapBefore = BenchStats.usedHeapAfterGc();
        long pid = db.nb().pid().orElseThrow();
        long server0 = RawBaseline.processCpu(pid);
        RawBaseline.Kernel serverKernel0 = RawBaseline.Kernel.of(pid);
        long jvm0 = BenchStats.jvmCpu();
        long api0 = api.cpuNanos();
        long bystander0 = BenchStats.processCpu(bystander.pid());
        Map<String, Long> threads0 = BenchStats.threadTicks();
        bystander.recordPolicyRows();
        long t0 = System.nanoTime();
        r.convergeStart = t0;
        PolicyController policies = PolicyController.start(
                PolicyControllerConfig.of(PolicyBenchCluster.ZONE, db.nb().unixEndpoint()), informers, reconciles);
        r.startNs = System.nanoTime() - t0;
        BenchStats.waitFor(() -> policies.reconciler().reconciles() > 0 && policies.idle(), 300_000);
        r.convergeNs = System.nanoTime() - t0;
        r.convergeServerCpuNs = RawBaseline.processCpu(pid) - server0;
        r.convergeServerKernel = RawBaseline.Kernel.of(pid).since(serverKernel0);
        r.convergeJvmCpuNs = BenchStats.jvmCpu() - jvm0;
        r.convergeApiCpuNs = api.cpuNanos() - api0;
        r.convergeBystanderCpuNs = BenchStats.processCpu(bystander.pid()) - bystander0;
        r.convergeThreads = BenchStats.topThreads(threads0, BenchStats.threadTicks(), 1, 8);
        r.converge = policies.northbound().counters().snapshot();
        r.reconciles = reconciles.recentDurations();
        r.first = reconciles.firstPhases().orElseThrow();
        BenchStats.waitQuiet(policies::idle, 200, 60_000);
        r.afterConverge = policies.northbound().counters().snapshot();
        long heapAfter = BenchStats.usedHeapAfterGc();
        r.heapNs = heapAfter - heapBefore;
        r.heapTotal = heapAfter;
        return policies;
    }

    /** Verdicts per second of the evaluator compiled from the same cluster, pre-resolved pod pairs, one thread. */
    private static void analyze(PolicyBenchCluster cluster, Report r) {
        long t0 = System.nanoTime();
        PolicyEvaluator e = PolicyEvaluator.compile(cluster.snapshot());
        r.compileMs = ms(System.nanoTime() - t0);
        List<Target> pods = e.pods();
        int n = 1 << 18;
        SplittableRandom random = new SplittableRandom(42);
        Target[] src = new Target[n];
        Target[] dst = new Target[n];
        ProtocolPort[] port = new ProtocolPort[n];
        for (int i = 0; i < n; i++) {
            src[i] = pods.get(random.nextInt(pods.size()));
            dst[i] = pods.get(random.nextInt(pods.size()));
            port[i] = AnalyzeBench.PORTS.get(random.nextInt(AnalyzeBench.PORTS.size()));
        }
        var threads = ManagementFactory.getThreadMXBean();
        long denied = 0;
        long count = 20_000_000;
        for (int round = 0; round < 2; round++) { // the first round warms the JIT up
            long cpu0 = threads.getCurrentThreadCpuTime();
            long jvm0 = BenchStats.jvmCpu();
            long w0 = System.nanoTime();
            for (long i = 0; i < count; i++) {
                int k = (int) (i & (n - 1));
                denied += e.verdict(src[k], dst[k], port[k].protocol(), port[k].port()) == Verdict.DENIED ? 1 : 0;
            }
            r.verdictsPerS = count / ((System.nanoTime() - w0) / 1e9);
            long own = threads.getCurrentThreadCpuTime() - cpu0;
            r.verdictsPerCpuS = count / (own / 1e9);
            r.analyzeOthersCpuMs = ms(BenchStats.jvmCpu() - jvm0 - own); // a busy thread beside it slows it too
        }
        r.deniedShare = denied / (2.0 * count);
    }

    /** Everything measured, printed as one table at the end. */
    private static final class Report {
        long startNs;
        long convergeStart;
        long convergeNs;
        long enforceNs;
        long convergeServerCpuNs;
        RawBaseline.Kernel convergeServerKernel;
        long convergeJvmCpuNs;
        long convergeApiCpuNs;
        long convergeBystanderCpuNs;
        TrafficCounters.Snapshot converge;
        TrafficCounters.Snapshot afterConverge;
        long[] reconciles;
        PolicyReconciler.Phases first;
        long heapNs;
        long heapTotal;
        RawBaseline.Load raw;
        /** The same raw load with a bystander attached as during the convergence run (same mode). */
        RawBaseline.Load rawWatched;
        /** Every raw load with the bystander, in the order run; {@link #rawWatched} is their median. */
        long[] rawWatchedRuns;
        /** This JVM's busiest threads' CPU (ms) from the start until converged. */
        String convergeThreads;

        ReconcileBreakdown.Phases steady;
        ReconcileBreakdown.Phases warm;
        Map<String, Integer> convergedRows;
        long convergedMemberships;
        PolicyEvents.Cost warmup;
        PolicyEvents.Cost relabel;
        String relabelPhases;
        String relabelsByNode;
        /** The last relabel on the zone's node, its NB writes replayed raw. */
        RawRelabels.Floor rawRelabel;

        List<PolicyEvents.Cost> churn;
        double restartMs;
        TrafficCounters.Snapshot restart;
        double compileMs;
        double verdictsPerS;
        double verdictsPerCpuS;
        double analyzeOthersCpuMs;
        double deniedShare;
        Bystander.Mode bystanderMode;
        Bystander.Watch bystanderWatch;
        String loadBefore;
        String loadAfter;
        double totalS;

        void print(PolicyBenchCluster.Scale scale) {
            double ratio = (double) convergeNs / raw.wallNs();
            double enforceRatio = (double) enforceNs / raw.wallNs();
            System.out.println();
            System.out.printf(
                    "PolicyConvergenceBench --scale %s (kube-apiserver and etcd) --bystander %s (%s) --bystander-monitor %s:"
                            + " load average %s before, %s after; %.0f s in all%n",
                    scale.name().toLowerCase(Locale.ROOT),
                    bystanderMode.option(),
                    bystanderMode.where(),
                    bystanderWatch.option(),
                    loadBefore,
                    loadAfter,
                    totalS);
            System.out.println("| figure | result | target |");
            System.out.println("|---|---|---|");
            System.out.printf(
                    "| policy rows in the zone's NB | %s; %,d port group memberships | |%n",
                    convergedRows, convergedMemberships);
            System.out.printf(
                    "| convergence, NB enforcing (start → a bystander in %s sees every final row) | %,.0f ms; %.2fx raw"
                            + " | |%n",
                    bystanderMode.where(), ms(enforceNs), enforceRatio);
            System.out.printf(
                    "| convergence incl. status conditions on the API server (start → converged) | %,.0f ms; %.2fx raw"
                            + " (informers synced + NB cache: %,.0f ms; reconciles %s ms) | |%n",
                    ms(convergeNs), ratio, ms(startNs), durations(reconciles));
            System.out.printf(
                    "| first reconcile: snapshot / translate / diff+write (of which the NB transaction) / publish | %,.0f /"
                            + " %,.0f / %,.0f (%,.0f) / %,.0f ms | |%n",
                    ms(first.snapshot()),
                    ms(first.translate()),
                    ms(first.write()),
                    ms(first.transact()),
                    ms(first.publish()));
            System.out.printf(
                    "| transactions / operations to converge | %d / %,d (%,d writes); %d more while settling | |%n",
                    converge.transactions(),
                    converge.operations(),
                    converge.writeOperations(),
                    afterConverge.minus(converge).transactions());
            System.out.printf(
                    "| raw bulk load of the same rows, one transact (%,d ops, %.1f MB) | %,.0f ms | |%n",
                    raw.operations(), raw.requestBytes() / 1e6, ms(raw.wallNs()));
            System.out.printf(
                    "| raw bulk load with the same bystander attached, in %s (until it sees every row) | %,.0f ms, median of"
                            + " %s ms (NB server CPU %,.0f ms) | |%n",
                    bystanderMode.where(),
                    ms(rawWatched.wallNs()),
                    Arrays.stream(rawWatchedRuns)
                            .mapToObj(n -> String.format("%,.0f", ms(n)))
                            .collect(Collectors.joining(" / ")),
                    ms(rawWatched.serverCpuNs()));
            System.out.printf(
                    "| ratio convergence / raw (wall): NB enforcing / incl. status conditions | %.2fx / %.2fx | <= 1.5x |%n",
                    enforceRatio, ratio);
            System.out.printf(
                    "| ratio NB enforcing / raw with the same bystander (both watched alike) | %.2fx | <= 1.5x |%n",
                    (double) enforceNs / rawWatched.wallNs());
            System.out.printf(
                    "| NB server CPU: convergence / raw | %,.0f / %,.0f ms = %.2fx | |%n",
                    ms(convergeServerCpuNs), ms(raw.serverCpuNs()), (double) convergeServerCpuNs / raw.serverCpuNs());
            RawBaseline.Kernel k = convergeServerKernel;
            RawBaseline.Kernel rk = rawWatched.serverKernel();
            System.out.printf(
                    "| NB server CPU in the kernel: convergence / raw with the bystander (its median run) | %,d / %,d ms;"
                            + " minor page faults %,d / %,d; context switches, voluntary %,d / %,d, involuntary %,d / %,d;"
                            + " read calls %,d / %,d (%,.1f / %,.1f MB), write calls %,d / %,d (%,.1f / %,.1f MB) | |%n",
                    k.systemMs(),
                    rk.systemMs(),
                    k.minorFaults(),
                    rk.minorFaults(),
                    k.voluntarySwitches(),
                    rk.voluntarySwitches(),
                    k.involuntarySwitches(),
                    rk.involuntarySwitches(),
                    k.readCalls(),
                    rk.readCalls(),
                    k.readBytes() / 1e6,
                    rk.readBytes() / 1e6,
                    k.writeCalls(),
                    rk.writeCalls(),
                    k.writtenBytes() / 1e6,
                    rk.writtenBytes() / 1e6);
            System.out.printf(
                    "| warm JVM, from scratch into a fresh NB: translate / rows / diff / transact | %,.0f / %,.0f / %,.0f /"
                            + " %,.0f ms = %,.0f ms (%,d ops); ratio to raw %.2fx | <= 1.5x |%n",
                    ms(warm.translateNs()),
                    ms(warm.rowsNs()),
                    ms(warm.planNs()),
                    ms(warm.applyNs()),
                    ms(warm.totalNs()),
                    warm.operations(),
                    (double) warm.totalNs() / raw.wallNs());
            System.out.printf(
                    "| warm reconcile with nothing changed: translate / rows / diff (median of 5) | %,.0f / %,.0f / %,.0f ms"
                            + " (%d ops; thread CPU %,.0f ms) | |%n",
                    ms(steady.translateNs()),
                    ms(steady.rowsNs()),
                    ms(steady.planNs()),
                    steady.operations(),
                    ms(steady.cpuNs()));
            convergenceCpu();
            System.out.printf(
                    "| policy controller heap (used after GC, before vs after) | %,.0f MB (whole JVM: %,.0f MB) | <= 512 MB |%n",
                    heapNs / 1e6, heapTotal / 1e6);
            if (warmup != null) {
                event(warmup, "");
            }
            event(relabel, "<= 20 ms");
            System.out.printf("| pod relabel: reconcile phases (median) | %s | |%n", relabelPhases);
            System.out.printf(
                    "| pod relabel: queued → NB written p50 / p90 / p99 by the pod's node | %s | |%n", relabelsByNode);
            System.out.printf(
                    "| pod relabel on the zone's node, its NB writes replayed raw (the last one's %d operations, undone and"
                            + " redone %d times in a copy of the NB, the same monitors): round trip p50 / p90 / p99; NB server CPU p50 / p90"
                            + " | %.1f / %.1f / %.1f ms; %.2f / %.2f ms | |%n",
                    rawRelabel.operations(),
                    rawRelabel.roundTripNs().length,
                    BenchStats.pct(rawRelabel.roundTripNs(), 50) / 1e6,
                    BenchStats.pct(rawRelabel.roundTripNs(), 90) / 1e6,
                    BenchStats.pct(rawRelabel.roundTripNs(), 99) / 1e6,
                    BenchStats.pct(rawRelabel.serverCpuNs(), 50) / 1e6,
                    BenchStats.pct(rawRelabel.serverCpuNs(), 90) / 1e6);
            churn.forEach(c -> event(c, ""));
            System.out.printf(
                    "| restart with nothing changed | %,.0f ms, %d transactions, %d writes | 0 writes |%n",
                    restartMs, restart.transactions(), restart.writeOperations());
            System.out.printf("| analyze: compile | %,.0f ms | |%n", compileMs);
            System.out.printf(
                    "| analyze: verdicts/s, 1 thread, pre-resolved pod pairs (%.0f%% denied) | %,.0f (%,.0f per CPU-second;"
                            + " the JVM's other threads meanwhile: %,.0f ms CPU) | >= 1,000,000 |%n",
                    100 * deniedShare, verdictsPerS, verdictsPerCpuS, analyzeOthersCpuMs);
        }

        /** This JVM's CPU, and that of each child process, from the start until converged. */
        private void convergenceCpu() {
            List<String> inJvm = new ArrayList<>();
            StringBuilder names = new StringBuilder(" / kube-apiserver and etcd");
            StringBuilder values =
                    new StringBuilder(String.format("%,.0f / %,.0f", ms(convergeJvmCpuNs), ms(convergeApiCpuNs)));
            if (bystanderMode == Bystander.Mode.PROCESS) {
                names.append(" / bystander process");
                values.append(String.format(" / %,.0f", ms(convergeBystanderCpuNs)));
            } else {
                inJvm.add("bystander");
            }
            System.out.printf(
                    "| CPU during convergence: this JVM (all threads%s)%s | %s ms | |%n",
                    inJvm.isEmpty() ? "" : ", " + String.join(" and ", inJvm) + " included", names, values);
            System.out.printf("| CPU during convergence in this JVM, busiest threads (ms) | %s | |%n", convergeThreads);
        }

        private static void event(PolicyEvents.Cost c, String target) {
            System.out.printf(
                    "| %s (%d, one at a time): end to end p50 / p99 | %.1f / %.1f ms (reconcile p50 %.1f, p99 %.1f ms, %d"
                            + " reconciles) | %s |%n",
                    c.name(),
                    c.count(),
                    pct(c.e2eNs(), 50) / 1e6,
                    pct(c.e2eNs(), 99) / 1e6,
                    pct(c.reconcileNs(), 50) / 1e6,
                    pct(c.reconcileNs(), 99) / 1e6,
                    c.reconcileNs().length,
                    target);
            System.out.printf(
                    "| %s: queued → NB written p50 / p99 | %.1f / %.1f ms (the controller's queue-to-done, %d reconciles;"
                            + " p90 %.1f, p95 %.1f, max %.1f ms) | |%n",
                    c.name(),
                    pct(c.queueToDoneNs(), 50) / 1e6,
                    pct(c.queueToDoneNs(), 99) / 1e6,
                    c.queueToDoneNs().length,
                    pct(c.queueToDoneNs(), 90) / 1e6,
                    pct(c.queueToDoneNs(), 95) / 1e6,
                    pct(c.queueToDoneNs(), 100) / 1e6);
            System.out.printf(
                    "| %s: policy NB txn / write ops / rows changed per event | %.2f / %.2f / %.2f (zone controller"
                            + " %.2f ops) | ops ∝ rows |%n",
                    c.name(), c.txnPerEvent(), c.opsPerEvent(), c.rowsPerEvent(), c.zoneOps() / (double) c.count());
            System.out.printf(
                    "| %s: CPU per event, this JVM (both controllers) / kube-apiserver and etcd / NB server | %,.1f / %,.1f"
                            + " / %.1f ms | |%n",
                    c.name(),
                    ms(c.jvmCpuNs()) / c.count(),
                    ms(c.apiCpuNs()) / c.count(),
                    ms(c.serverCpuNs()) / c.count());
            System.out.printf("| %s: CPU per event in this JVM, busiest threads | %s ms | |%n", c.name(), c.threads());
            System.out.printf("| %s: garbage collections in this JVM meanwhile | %s | |%n", c.name(), c.gc());
        }

        private static String durations(long[] ns) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < Math.min(ns.length, 6); i++) {
                b.append(i == 0 ? "" : ", ").append(String.format("%,.0f", ns[i] / 1e6));
            }
            return b.append(ns.length > 6 ? ", ..." : "").toString();
        }
    }
}
