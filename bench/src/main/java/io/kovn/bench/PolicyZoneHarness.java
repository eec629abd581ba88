package io.kovn.bench;

import io.kovn.controller.policy.PolicyController;
import io.kovn.controller.policy.PolicyControllerConfig;
import io.kovn.controller.zone.ZoneController;
import io.kovn.controller.zone.ZoneControllerConfig;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The steps the policy convergence benchmarks ({@link PolicyConvergenceBench},
 * {@link ClusterNetworkPolicyConvergenceBench}) share, whatever policy set they load: the zone
 * {@link PolicyBenchCluster#ZONE} with its switch ports, the raw baseline with a bystander (median of
 * {@link #RAW_WATCHED_RUNS}), and a restart with nothing changed.
 */
final class PolicyZoneHarness {
    /** Raw loads with the bystander, whose median is the baseline. */
    static final int RAW_WATCHED_RUNS = 3;

    /** The raw loads with a bystander: their wall times in the order run, and the median run. */
    record RawWatched(long[] wallNs, RawBaseline.Load median) {}

    /** A restart with nothing changed: wall time until idle (quiet for 100 ms included), and its NB traffic. */
    record Restart(long ns, TrafficCounters.Snapshot counters) {}

    private PolicyZoneHarness() {}

    /**
     * Starts the zone controller on {@code db} and waits until it has made the switch ports the policy controller puts
     * in port groups (the zone's {@code localPods} pods, the other nodes' and two more) and is idle.
     */
    static ZoneController startZone(OvnDatabases db, SharedInformers informers, int localPods) throws Exception {
        ZoneController zone = ZoneController.start(
                ZoneControllerConfig.of(
                        PolicyBenchCluster.ZONE, db.nb().unixEndpoint(), db.sb().unixEndpoint()),
                informers);
        int ports = 2 + (PolicyBenchCluster.NODES - 1) + localPods;
        BenchStats.waitFor(
                () -> zone.databases().nbCache().table("Logical_Switch_Port").size() >= ports, 180_000);
        BenchStats.waitQuiet(zone::idle, 100, 60_000);
        return zone;
    }

    /**
     * Loads the converged policy rows raw {@link #RAW_WATCHED_RUNS} times with a bystander attached: the same load
     * varies by up to 1.5x from one run to the next on this machine (the NB server's CPU for it too), so the median is
     * the baseline.
     */
    static RawWatched rawWatched(
            MonitorCache converged, Bystander.Mode bystander, Bystander.Watch watch, long timelineMs) throws Exception {
        List<RawBaseline.Load> runs = new ArrayList<>();
        for (int i = 0; i < RAW_WATCHED_RUNS; i++) {
            runs.add(RawBaseline.watched(converged, ObjectId.DEFAULT_CONTROLLER, bystander, watch, timelineMs));
        }
        return new RawWatched(
                runs.stream().mapToLong(RawBaseline.Load::wallNs).toArray(),
                runs.stream()
                        .sorted(Comparator.comparingLong(RawBaseline.Load::wallNs))
                        .toList()
                        .get(RAW_WATCHED_RUNS / 2));
    }

    /** Starts a policy controller again on the converged NB, waits until it is idle, and closes it. */
    static Restart restart(PolicyControllerConfig config, SharedInformers informers) throws Exception {
        long t = System.nanoTime();
        PolicyController again = PolicyController.start(config, informers);
        BenchStats.waitFor(() -> again.reconciler().reconciles() > 0, 120_000);
        BenchStats.waitQuiet(again::idle, 100, 60_000);
        long ns = System.nanoTime() - t;
        TrafficCounters.Snapshot counters = again.northbound().counters().snapshot();
        again.close();
        return new Restart(ns, counters);
    }
}
