package io.kovn.controller.service;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.zone.ZoneDatabases;
import io.kovn.k8s.runtime.BatchReconciler;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.ovsdb.data.Uuid;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's service load balancers, keyed by Service ({@code <ns>/<name>}), plus one key ({@link #GROUPS}) for the
 * load balancer groups. A service's reconcile reads the Service and its EndpointSlices from the informers, computes
 * {@link ServiceModel#desired}, diffs it against that service's rows only ({@link ServiceRows}) and applies the plan as
 * one transaction: LB inserts, updates and deletes with the groups' {@code load_balancer} mutates. A converged service
 * writes nothing; a deleted one leaves no row. A malformed Service has no rows and gets a Warning Event.
 */
public final class ServiceReconciler implements BatchReconciler<String> {
    /** The key of the load balancer groups' step. */
    public static final String GROUPS = "groups";
    /** Index of EndpointSlices by their service, {@code <ns>/<kubernetes.io/service-name>}. */
    public static final String BY_SERVICE = "kovn-service";

    public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
    static final String INVALID_REASON = "ServiceLoadBalancerInvalid";

    private static final Logger LOG = LoggerFactory.getLogger(ServiceReconciler.class);
    private static final Duration CACHE_BEHIND = Duration.ofMillis(50);
    // short: at start the groups are written a moment before the first services (their transaction is the first)
    private static final Duration NO_GROUPS_YET = Duration.ofMillis(20);

    private final String node;
    private final Indexer<Service> services;
    private final Indexer<EndpointSlice> slices;
    private final Indexer<Node> nodes;
    private final ZoneDatabases dbs;
    private final EventSink events;
    private final Consumer<String> enqueue;
    private final AtomicLong reconciles = new AtomicLong();
    private final Function<String, Optional<NetworkServices.Target>> networks;
    private final Function<String, Pod> pods;

    /** @param enqueue queues a key of this reconciler (the groups' key when a service waits for them) */
    public ServiceReconciler(
            String node,
            Indexer<Service> services,
            Indexer<EndpointSlice> slices,
            Indexer<Node> nodes,
            ZoneDatabases dbs,
            EventSink events,
            Consumer<String> enqueue) {
        this(node, services, slices, nodes, dbs, events, enqueue, ns -> Optional.empty(), key -> null);
    }

    /**
     * @param networks a namespace's primary user-defined network, if it has one
     * @param pods the pods by {@code <ns>/<name>} (a network service's endpoints are its pods' network addresses)
     */
    public ServiceReconciler(
            String node,
            Indexer<Service> services,
            Indexer<EndpointSlice> slices,
            Indexer<Node> nodes,
            ZoneDatabases dbs,
            EventSink events,
            Consumer<String> enqueue,
            Function<String, Optional<NetworkServices.Target>> networks,
            Function<String, Pod> pods) {
        this.networks = networks;
        this.pods = pods;
        this.node = node;
        this.services = services;
        this.slices = slices;
        this.nodes = nodes;
        this.dbs = dbs;
        this.events = events;
        this.enqueue = enqueue;
    }

    /** The EndpointSlice index: a slice's service key, none without the service-name label. */
    public static List<String> serviceKeyOf(EndpointSlice s) {
        String name = s.getMetadata().getLabels() == null
                ? null
                : s.getMetadata().getLabels().get(SERVICE_NAME_LABEL);
        return name == null ? List.of() : List.of(s.getMetadata().getNamespace() + "/" + name);
    }

    @Override
    public ReconcileResult reconcile(String key) {
        reconciles.incrementAndGet();
        if (key.equals(GROUPS)) {
            return resultOf(dbs.northbound().apply(LoadBalancerGroups.plan(node, dbs.nbCache())), key);
        }
        Optional<Plan> plan = planOf(key, facts(), LoadBalancerGroups.uuids(dbs.nbCache()));
        if (plan.isEmpty()) {
            enqueue.accept(GROUPS);
            return ReconcileResult.requeue(NO_GROUPS_YET);
        }
        return resultOf(dbs.northbound().apply(plan.get()), key);
    }

    /**
     * Many services queued at once (start-up, a burst): each planned as {@link #reconcile} plans it, against the same
     * cache, and the plans applied as ONE transaction ({@link Plan#concat}); a converged service adds nothing. A stale
     * cache requeues the written services; a refused transaction fails them, and each is then retried by itself. The
     * groups' key, when queued among them, is applied first on its own.
     */
    @Override
    public Map<String, ReconcileResult> reconcileAll(List<String> keys) {
        Map<String, ReconcileResult> results = HashMap.newHashMap(keys.size());
        if (keys.contains(GROUPS)) {
            results.put(GROUPS, reconcile(GROUPS));
        }
        ZoneFacts facts = facts();
        Map<String, Uuid> groups = LoadBalancerGroups.uuids(dbs.nbCache());
        List<String> written = new ArrayList<>();
        List<Plan> plans = new ArrayList<>();
        for (String key : keys) {
            if (key.equals(GROUPS)) continue;
            reconciles.incrementAndGet();
            try {
                Optional<Plan> plan = planOf(key, facts, groups);
                if (plan.isEmpty()) {
                    enqueue.accept(GROUPS);
                    results.put(key, ReconcileResult.requeue(NO_GROUPS_YET));
                } else if (plan.get().isEmpty()) {
                    results.put(key, ReconcileResult.done());
                } else {
                    written.add(key);
                    plans.add(plan.get());
                }
            } catch (RuntimeException e) {
                results.put(key, ReconcileResult.failed(e));
            }
        }
        ReconcileResult outcome;
        try {
            outcome = resultOf(dbs.northbound().apply(Plan.concat(plans)), written.size() + " services");
        } catch (RuntimeException e) {
            outcome = ReconcileResult.failed(e);
        }
        for (String key : written) {
            results.put(key, outcome);
        }
        return results;
    }

    /** A service's plan; empty while the load balancer groups do not exist yet. */
    private Optional<Plan> planOf(String key, ZoneFacts facts, Map<String, Uuid> groups) {
        Service service = services.getByKey(key);
        List<EndpointSlice> endpoints = service == null ? List.of() : slices.byIndex(BY_SERVICE, key);
        Optional<NetworkServices.Target> network = networks.apply(key.substring(0, key.indexOf('/')));
        if (network.isPresent()) {
            endpoints = NetworkServices.mirrored(endpoints, pods);
        }
        ServiceModel.Result result = ServiceModel.desired(service, endpoints, facts);
        result.problem().ifPresent(p -> {
            LOG.warn("zone {}: {}", node, p);
            events.warning(service, INVALID_REASON, p);
        });
        if (network.isPresent()) {
            List<ServiceLoadBalancer> lbs = NetworkServices.onNetwork(result.loadBalancers(), network.get());
            if (!lbs.isEmpty() && network.get().networkSwitch().isEmpty())
                return Optional.empty(); // the topology brings it
            return ServiceRows.desired(key, node, lbs, groups, network.get().networkSwitch())
                    .map(desired -> dbs.northbound().plan(ServiceRows.owner(key), desired));
        }
        return ServiceRows.desired(key, node, result.loadBalancers(), groups)
                .map(desired -> dbs.northbound().plan(ServiceRows.owner(key), desired));
    }

    /** The zone's node name and its InternalIP addresses (the NodePort vips). */
    ZoneFacts facts() {
        Node n = nodes.getByKey(node);
        List<String> ips = n == null || n.getStatus() == null || n.getStatus().getAddresses() == null
                ? List.of()
                : n.getStatus().getAddresses().stream()
                        .filter(a -> "InternalIP".equals(a.getType()))
                        .map(NodeAddress::getAddress)
                        .distinct()
                        .toList();
        return new ZoneFacts(node, ips);
    }

    private ReconcileResult resultOf(PlanOutcome applied, String key) {
        return switch (applied) {
            case Noop n -> ReconcileResult.done();
            case Applied a -> {
                LOG.debug("zone {}: service {} load balancers {}", node, key, a.counts());
                yield ReconcileResult.done();
            }
            case Stale s -> ReconcileResult.requeue(CACHE_BEHIND);
        };
    }

    /** How many reconciles ran (tests wait for quiet with it). */
    public long reconciles() {
        return reconciles.get();
    }
}
