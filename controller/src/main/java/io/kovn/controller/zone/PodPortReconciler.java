package io.kovn.controller.zone;

import io.kovn.controller.network.Network;
import io.kovn.k8s.runtime.BatchReconciler;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.topology.NetworkScope;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.PlanOutcome;
import io.kovn.ovsdb.diff.PlanOutcome.Applied;
import io.kovn.ovsdb.diff.PlanOutcome.Noop;
import io.kovn.ovsdb.diff.PlanOutcome.Stale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's pod switch ports, keyed by pod: {@link PodPortModel} of the pod's port and the node switch, diffed against
 * that pod's rows in the NB monitor cache (looked up by their id, not by scanning), applied as one transaction (the
 * port's insert, update or delete and the switch's {@code ports} mutate). Level-driven: a pod that is gone, finished or
 * without its addresses has no port; a converged pod sends nothing, so restarts and repeated events write nothing.
 *
 * <p>Many pods queued at once (start-up, a burst) are reconciled together ({@link #reconcileAll}): each pod's plan is
 * made as above, and the plans are applied as one transaction ({@link Plan#concat}: the pods' ports and one mutate of
 * the node switch's {@code ports}).
 */
public final class PodPortReconciler implements BatchReconciler<ObjectKey> {
    private static final Logger LOG = LoggerFactory.getLogger(PodPortReconciler.class);
    /** After a write the monitor cache was behind: the update that catches it up is on its way. */
    private static final Duration CACHE_BEHIND = Duration.ofMillis(50);
    /** The topology key makes the node switch, and its insert re-queues every pod; this is a backstop. */
    private static final Duration NO_SWITCH_YET = Duration.ofSeconds(1);

    private final String zone;
    private final PodAddressReconciler addresses;
    private final ZoneDatabases dbs;
    private final ReconcileTimes times = new ReconcileTimes();
    private final Supplier<List<Network>> networks;

    /**
     * @param zone the zone's node
     * @param addresses the pods' addresses (a pod has a port once it holds what its annotation states)
     * @param dbs the zone's databases
     */
    public PodPortReconciler(String zone, PodAddressReconciler addresses, ZoneDatabases dbs) {
        this(zone, addresses, dbs, List::of);
    }

    /** @param networks the accepted user-defined networks (a pod may have a port on one of them) */
    PodPortReconciler(
            String zone, PodAddressReconciler addresses, ZoneDatabases dbs, Supplier<List<Network>> networks) {
        this.zone = zone;
        this.addresses = addresses;
        this.dbs = dbs;
        this.networks = networks;
    }

    @Override
    public ReconcileResult reconcile(ObjectKey pod) {
        ReconcileTimes.Stopwatch watch = times.start();
        try {
            if (!addresses.ready()) {
                // Without the node's subnets no pod's addresses are known: leave the ports as they are.
                return ReconcileResult.done();
            }
            Optional<Plan> plan = planOf(pod, PodPortModel.nodeSwitch(zone, dbs.nbState()));
            if (plan.isEmpty()) {
                LOG.debug("zone {}: pod {} waits for the node switch", zone, pod);
                return ReconcileResult.requeue(NO_SWITCH_YET);
            }
            watch.computed(plan.get().operations().size());
            return resultOf(dbs.northbound().apply(plan.get()), pod);
        } finally {
            watch.stop();
        }
    }

    /**
     * The pods' plans in one transaction. A pod that is converged is done without a write; a pod whose plan cannot be
     * made fails alone; the pods written share the transaction's outcome (a stale cache requeues them all; a refused
     * transaction fails them all, and each is then retried by itself).
     */
    @Override
    public Map<ObjectKey, ReconcileResult> reconcileAll(List<ObjectKey> pods) {
        ReconcileTimes.Stopwatch watch = times.start();
        try {
            Map<ObjectKey, ReconcileResult> results = HashMap.newHashMap(pods.size());
            if (!addresses.ready()) {
                pods.forEach(pod -> results.put(pod, ReconcileResult.done()));
                return results;
            }
            Optional<Uuid> nodeSwitch = PodPortModel.nodeSwitch(zone, dbs.nbState());
            List<ObjectKey> written = new ArrayList<>();
            List<Plan> plans = new ArrayList<>();
            for (ObjectKey pod : pods) {
                try {
                    Optional<Plan> plan = planOf(pod, nodeSwitch);
                    if (plan.isEmpty()) {
                        results.put(pod, ReconcileResult.requeue(NO_SWITCH_YET));
                    } else if (plan.get().isEmpty()) {
                        results.put(pod, ReconcileResult.done());
                    } else {
                        written.add(pod);
                        plans.add(plan.get());
                    }
                } catch (RuntimeException e) {
                    results.put(pod, ReconcileResult.failed(e));
                }
            }
            ReconcileResult outcome;
            try {
                Plan all = Plan.concat(plans);
                watch.computed(all.operations().size());
                outcome = resultOf(dbs.northbound().apply(all), written.size() + " pods");
            } catch (RuntimeException e) {
                outcome = ReconcileResult.failed(e);
            }
            for (ObjectKey pod : written) {
                results.put(pod, outcome);
            }
            return results;
        } finally {
            watch.stop();
        }
    }

    /**
     * A pod's plan: its default-network port, and its port on each user-defined network where it has or should have one
     * (one transaction). Empty while a wanted port waits for its switch.
     */
    private Optional<Plan> planOf(ObjectKey pod, Optional<Uuid> nodeSwitch) {
        Optional<PodPorts> ports = addresses.ports(pod);
        boolean isolated = ports.flatMap(PodPorts::networkPort).isPresent();
        Optional<Plan> own = PodPortModel.desired(
                        pod,
                        ports.map(PodPorts::defaultPort),
                        nodeSwitch,
                        isolated,
                        isolated ? IsolationModel.portGroup(dbs.nbState()) : Optional.empty())
                .map(desired -> dbs.northbound().plan(PodPortModel.owner(pod), desired));
        if (own.isEmpty()) return Optional.empty();
        Optional<PodPorts.NetworkPort> wanted = ports.flatMap(PodPorts::networkPort);
        List<Plan> plans = new ArrayList<>(List.of(own.get()));
        for (Network network : networks.get()) {
            NetworkScope scope = PodPortModel.scope(network);
            Optional<PodPorts.NetworkPort> port =
                    wanted.filter(w -> w.network().name().equals(network.name()));
            if (port.isEmpty() && !PodPortModel.hasPort(scope, pod, dbs.nbState())) continue;
            Optional<DesiredState> desired = PodPortModel.desired(
                    scope, pod, port, PodPortModel.networkSwitch(scope, network, zone, dbs.nbState()));
            if (desired.isEmpty()) return Optional.empty();
            plans.add(dbs.northbound().plan(PodPortModel.owner(scope, pod), desired.get()));
        }
        return Optional.of(plans.size() == 1 ? plans.getFirst() : Plan.concat(plans));
    }

    private ReconcileResult resultOf(PlanOutcome applied, Object what) {
        return switch (applied) {
            case Noop n -> ReconcileResult.done();
            case Applied a -> {
                LOG.debug("zone {}: {} port {}", zone, what, a.counts());
                yield ReconcileResult.done();
            }
            // Our cache was behind the server: reconcile again once it has caught up.
            case Stale s -> ReconcileResult.requeue(CACHE_BEHIND);
        };
    }

    /**
     * Every pod key this zone may have to act on: the pods on the node and the pods that kovn's switch ports in NB were
     * made for (some may be gone: a crash left their ports). Queued at start, this is the startup sweep that removes
     * stale pod ports.
     */
    public Set<ObjectKey> sweep() {
        Set<ObjectKey> keys = new TreeSet<>(addresses.podsOnNode());
        dbs.nbCache()
                .table(LogicalSwitchPort.TABLE_NAME)
                .select(r -> PodPortModel.podOf(r).isPresent())
                .forEach(r -> PodPortModel.podOf(r).ifPresent(keys::add));
        return keys;
    }

    /** The recent reconciles' timings. */
    public ReconcileTimes times() {
        return times;
    }
}
