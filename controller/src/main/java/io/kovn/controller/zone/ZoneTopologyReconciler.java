package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.controller.events.EventSink;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.sb.Chassis;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.PlanOutcome.Applied;
import io.kovn.ovsdb.diff.PlanOutcome.Stale;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's topology reconcile (one key: the zone): reads the node cache, computes {@link ZoneModel#plan}, and applies
 * the NB and the SB desired rows, each as one transaction through the ownership diff. Startup repair (stale rows left
 * by a crash) and steady state are the same call; a converged zone sends nothing. Pods' ports are not its rows:
 * {@link PodPortReconciler} reconciles each pod's on its own, and pod events never re-plan the zone.
 */
public final class ZoneTopologyReconciler implements Reconciler<String> {
    private static final Logger LOG = LoggerFactory.getLogger(ZoneTopologyReconciler.class);

    private final String zone;
    private final Indexer<Node> nodes;
    private final ZoneDatabases dbs;
    private final EventSink events;
    private final TrustZoneMetrics metrics;
    private final Set<String> reported = new HashSet<>();
    private volatile ZoneModel.Plan last;
    private final ZoneModel.Memo memo = new ZoneModel.Memo();
    private final ReconcileTimes times = new ReconcileTimes();
    private final List<IpPrefix> clusterSubnets;

    public ZoneTopologyReconciler(
            String zone, Indexer<Node> nodes, ZoneDatabases dbs, EventSink events, TrustZoneMetrics metrics) {
        this(zone, nodes, dbs, events, metrics, ZoneModel.DEFAULT_CLUSTER_SUBNETS);
    }

    /** A reconciler for a cluster of these pod networks (the node gateway SNATs and routes them). */
    public ZoneTopologyReconciler(
            String zone,
            Indexer<Node> nodes,
            ZoneDatabases dbs,
            EventSink events,
            TrustZoneMetrics metrics,
            List<IpPrefix> clusterSubnets) {
        this.clusterSubnets = List.copyOf(clusterSubnets);
        this.zone = zone;
        this.nodes = nodes;
        this.dbs = dbs;
        this.events = events;
        this.metrics = metrics;
    }

    @Override
    public ReconcileResult reconcile(String key) {
        ReconcileTimes.Stopwatch watch = times.start();
        try {
            List<Node> all = nodes.list();
            Set<String> foreignChassis = new HashSet<>();
            for (Row c : dbs.sbCache().table(Chassis.TABLE_NAME).rows()) {
                if (!ZoneModel.OWNER.owns(c)) {
                    foreignChassis.add(Chassis.fromRow(c).name());
                }
            }
            ZoneModel.Plan plan = ZoneModel.plan(zone, all, foreignChassis, dbs.nbState(), memo, clusterSubnets);
            last = plan;
            report(plan, all);
            if (plan.local().isEmpty()) {
                LOG.debug("zone {}: local node has no allocation yet", zone);
                return ReconcileResult.done();
            }
            Plan nbPlan = Plan.concat(List.of(
                    dbs.northbound().plan(ZoneModel.OWNER, plan.northbound()),
                    dbs.northbound()
                            .plan(
                                    IsolationModel.OWNER,
                                    IsolationModel.desired(plan.local().get(), dbs.nbState()))));
            Plan sbPlan = EncapSync.augment(
                    dbs.southbound().plan(ZoneModel.OWNER, plan.southbound()),
                    plan.encaps(),
                    dbs.sbState(),
                    ZoneModel.OWNER);
            watch.computed(nbPlan.operations().size() + sbPlan.operations().size());
            var nb = dbs.northbound().apply(nbPlan);
            var sb = dbs.southbound().apply(sbPlan);
            metrics.record(zone, plan.programmed().size(), plan.skipped().size());
            if (nb instanceof Stale || sb instanceof Stale) {
                // Our cache was behind the server: reconcile again once it has caught up.
                return ReconcileResult.requeue(Duration.ofMillis(50));
            }
            if (nb instanceof Applied a) {
                LOG.debug("zone {}: NB {}", zone, a.counts());
            }
            if (sb instanceof Applied a) {
                LOG.debug("zone {}: SB {}", zone, a.counts());
            }
            return ReconcileResult.done();
        } finally {
            watch.stop();
        }
    }

    /** The last computed plan (for tests and diagnostics). */
    public ZoneModel.Plan lastPlan() {
        return last;
    }

    /** The recent reconciles' timings (compute: model and diff, no I/O; none while the node has no allocation). */
    public ReconcileTimes times() {
        return times;
    }

    /** How many reconciles ran. */
    public long reconciles() {
        return times.count();
    }

    private void report(ZoneModel.Plan plan, List<Node> all) {
        Set<String> now = new HashSet<>();
        for (ZoneModel.NodeProblem p : plan.problems()) {
            String id = p.node() + "|" + p.reason() + "|" + p.message();
            now.add(id);
            if (reported.contains(id)) {
                continue; // one event per distinct problem, not one per reconcile
            }
            all.stream()
                    .filter(n -> n.getMetadata().getName().equals(p.node()))
                    .findFirst()
                    .ifPresent(n -> events.warning(n, p.reason(), p.message()));
            LOG.info("zone {}: {}", zone, p.message());
        }
        reported.retainAll(now);
        reported.addAll(now);
    }
}
