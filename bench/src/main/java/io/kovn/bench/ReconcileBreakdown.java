package io.kovn.bench;

import io.kovn.controller.OvsdbDatabase;
import io.kovn.controller.policy.NorthboundRows;
import io.kovn.controller.policy.PolicyController;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.StatefulPods;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.model.PriorityAssignment;
import io.kovn.runtime.testing.OvnDatabases;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * Where a policy reconcile's time goes, phase by phase, with a warm JIT: the pure translation, the translation as NB
 * rows, the ownership diff against the monitor cache, and the transaction. Run the same way the controller's reconcile
 * runs them, on the benchmark's cluster objects.
 */
final class ReconcileBreakdown {
    /** Median phase times (ns) and the plan's size. */
    record Phases(long translateNs, long rowsNs, long planNs, long applyNs, int operations, long cpuNs) {
        long totalNs() {
            return translateNs + rowsNs + planNs + applyNs;
        }
    }

    private ReconcileBreakdown() {}

    /** The converged zone with nothing changed: translate, rows and diff (an empty plan), median of {@code rounds}. */
    static Phases steady(
            PolicyBenchCluster cluster, PolicyController policies, ReconcileRecorder reconciles, int rounds) {
        PriorityAssignment priorities = reconciles.lastState().priorities();
        long[][] t = new long[4][rounds];
        int ops = 0;
        for (int i = 0; i < rounds; i++) {
            Phases p = phases(cluster, policies.northbound(), priorities, false);
            t[0][i] = p.translateNs();
            t[1][i] = p.rowsNs();
            t[2][i] = p.planNs();
            t[3][i] = p.cpuNs();
            ops = p.operations();
        }
        return new Phases(median(t[0]), median(t[1]), median(t[2]), 0, ops, median(t[3]));
    }

    /** From scratch into a fresh NB holding only the zone's switch ports (by name), in this warm JVM. */
    static Phases fresh(PolicyBenchCluster cluster, PolicyController policies) {
        try (OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbOnly())) {
            try (OvsdbClient c =
                    OvsdbClient.builder().endpoint(db.nb().unixEndpoint()).connect()) {
                RawBaseline.switchWithPorts(
                        c, switchPorts(policies.northbound()).keySet());
            }
            try (OvsdbDatabase nb = OvsdbDatabase.connect(
                    db.nb().unixEndpoint(),
                    NorthboundRows.DATABASE,
                    PolicyController.NB_MONITORS,
                    Duration.ofMinutes(5))) {
                nb.reconciler()
                        .reconcile(
                                NorthboundRows.meterOwner(ObjectId.DEFAULT_CONTROLLER),
                                NorthboundRows.meter(ObjectId.DEFAULT_CONTROLLER));
                return phases(cluster, nb, PriorityAssignment.EMPTY, true);
            }
        }
    }

    private static Phases phases(
            PolicyBenchCluster cluster, OvsdbDatabase nb, PriorityAssignment previous, boolean apply) {
        var threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Map<String, Uuid> ports = switchPorts(nb);
        PolicySnapshot snapshot = PolicySnapshot.builder(PolicyBenchCluster.ZONE)
                .ownerController(ObjectId.DEFAULT_CONTROLLER)
                .ipFamilies(Set.of(IpFamily.IPV4))
                .namespaces(cluster.namespaces())
                .pods(cluster.pods())
                .nodes(cluster.nodes())
                .networkPolicies(cluster.networkPolicies())
                .adminNetworkPolicies(cluster.anps())
                .baselineAdminNetworkPolicies(cluster.banps())
                .localPorts(ports.keySet())
                .previousPriorities(previous)
                .build();
        DesiredPolicyState state = PolicyTranslator.translate(snapshot);
        long t1 = System.nanoTime();
        DesiredState desired =
                NorthboundRows.of(state, StatefulPods.rows(snapshot, state), ports); // as the reconcile does
        long t2 = System.nanoTime();
        Owner owner = NorthboundRows.owner(ObjectId.DEFAULT_CONTROLLER);
        Plan plan = nb.reconciler().plan(owner, desired);
        long t3 = System.nanoTime();
        if (apply) {
            nb.reconciler().apply(plan);
        }
        long t4 = System.nanoTime();
        return new Phases(
                t1 - t0, t2 - t1, t3 - t2, t4 - t3, plan.operations().size(), threads.getCurrentThreadCpuTime() - cpu0);
    }

    /** The NB's logical switch ports by name. */
    private static Map<String, Uuid> switchPorts(OvsdbDatabase nb) {
        Map<String, Uuid> out = new java.util.HashMap<>();
        for (var r : nb.cache().table("Logical_Switch_Port").rows()) {
            if (r.get("name") instanceof String name) {
                out.put(name, r.uuid());
            }
        }
        return out;
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
