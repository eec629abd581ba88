package io.kovn.controller.zone;

import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.topology.PodPort;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.ReconcileResult.Applied;
import io.kovn.ovsdb.diff.ReconcileResult.Noop;
import io.kovn.ovsdb.diff.ReconcileResult.Stale;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's pod switch ports, keyed by pod: {@link PodPortModel} of the pod's port and the node
 * switch, diffed against that pod's rows in the NB monitor cache (looked up by their id, not by
 * scanning), applied as one transaction (the port's insert, update or delete and the switch's
 * {@code ports} mutate). Level-driven: a pod that is gone, finished or without its addresses has
 * no port; a converged pod sends nothing, so restarts and repeated events write nothing.
 */
public final class PodPortReconciler implements Reconciler<ObjectKey> {
    private static final Logger LOG = LoggerFactory.getLogger(PodPortReconciler.class);
    /** After a write the monitor cache was behind: the update that catches it up is on its way. */
    private static final Duration CACHE_BEHIND = Duration.ofMillis(50);
    /** The topology key makes the node switch, and its insert re-queues every pod; this is a backstop. */
    private static final Duration NO_SWITCH_YET = Duration.ofSeconds(1);

    private final String zone;
    private final PodAddressReconciler addresses;
    private final ZoneDatabases dbs;
    private final ReconcileTimes times = new ReconcileTimes();

    /**
     * @param zone the zone's node
     * @param addresses the pods' addresses (a pod has a port once it holds what its annotation states)
     * @param dbs the zone's databases
     */
    public PodPortReconciler(String zone, PodAddressReconciler addresses, ZoneDatabases dbs) {
        this.zone = zone;
        this.addresses = addresses;
        this.dbs = dbs;
    }

    @Override
    public ReconcileResult reconcile(ObjectKey pod) {
        ReconcileTimes.Stopwatch watch = times.start();
        try {
            if (!addresses.ready()) {
                // Without the node's subnets no pod's addresses are known: leave the ports as they are.
                return ReconcileResult.done();
            }
            Optional<PodPort> port = addresses.port(pod);
            Optional<DesiredState> desired = PodPortModel.desired(pod, port,
                    PodPortModel.nodeSwitch(zone, dbs.nbState()));
            if (desired.isEmpty()) {
                LOG.debug("zone {}: pod {} waits for the node switch", zone, pod);
                return ReconcileResult.requeue(NO_SWITCH_YET);
            }
            Plan plan = dbs.northbound().plan(PodPortModel.owner(pod), desired.get());
            watch.computed(plan.operations().size());
            return switch (dbs.northbound().apply(plan)) {
                case Noop n -> ReconcileResult.done();
                case Applied a -> {
                    LOG.debug("zone {}: pod {} port {}", zone, pod, a.counts());
                    yield ReconcileResult.done();
                }
                // Our cache was behind the server: reconcile again once it has caught up.
                case Stale s -> ReconcileResult.requeue(CACHE_BEHIND);
            };
        } finally {
            watch.stop();
        }
    }

    /**
     * Every pod key this zone may have to act on: the pods on the node and the pods that kovn's
     * switch ports in NB were made for (some may be gone: a crash left their ports). Queued at
     * start, this is the startup sweep that removes stale pod ports.
     */
    public Set<ObjectKey> sweep() {
        Set<ObjectKey> keys = new TreeSet<>(addresses.podsOnNode());
        dbs.nbCache().table(LogicalSwitchPort.TABLE_NAME).select(PodPortModel.OWNER::owns)
                .forEach(r -> PodPortModel.podOf(r).ifPresent(keys::add));
        return keys;
    }

    /** The recent reconciles' timings. */
    public ReconcileTimes times() {
        return times;
    }
}
