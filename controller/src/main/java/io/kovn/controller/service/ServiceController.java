package io.kovn.controller.service;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.zone.ZoneDatabases;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.ovn.nb.LoadBalancer;
import io.kovn.ovn.nb.LoadBalancerGroup;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovsdb.cache.CacheListener;
import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service controller of one zone: Services and EndpointSlices (watched through the process's shared informers) to
 * the zone's {@code Load_Balancer} rows ({@link ServiceReconciler}, keyed by {@code <ns>/<name>}, and its
 * {@code groups} key). An EndpointSlice queues its service; the local node queues every service when its addresses
 * change (NodePort vips); NB changes queue the service whose load balancer changed (drift is repaired), and the groups'
 * key when a switch, router or group appears or its {@code load_balancer_group} changes. Uses the zone's NB monitor
 * cache.
 */
public final class ServiceController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceController.class);
    /** The kinds it watches (besides Node, which the zone controller already watches). */
    public static final List<Class<? extends HasMetadata>> KINDS = List.of(Service.class, EndpointSlice.class);

    private final ZoneDatabases dbs;
    private final Controller<String> controller;
    private final ServiceReconciler reconciler;
    private final CacheListener nbListener;

    private ServiceController(
            String node,
            SharedInformers informers,
            ZoneDatabases dbs,
            EventSink events,
            ControllerMetrics metrics,
            int batch,
            Function<String, Optional<NetworkServices.Target>> networks) {
        this.dbs = dbs;
        SharedIndexInformer<Service> services = informers.informer(Service.class);
        SharedIndexInformer<EndpointSlice> slices = informers.informer(EndpointSlice.class);
        SharedIndexInformer<Node> nodes = informers.informer(Node.class);
        List<Controller<String>> self = new ArrayList<>(1);
        var pods = informers.informer(Pod.class).getIndexer();
        this.reconciler = new ServiceReconciler(
                node,
                services.getIndexer(),
                slices.getIndexer(),
                nodes.getIndexer(),
                dbs,
                events,
                key -> self.getFirst().enqueue(key),
                networks,
                pods::getByKey);
        this.controller = Controller.builder("zone-services-" + node, reconciler)
                .watch(
                        services,
                        (Service s) -> List.of(s.getMetadata().getNamespace() + "/"
                                + s.getMetadata().getName()))
                .watch(slices, ServiceReconciler::serviceKeyOf)
                .watch(
                        nodes,
                        (Node n) -> n.getMetadata().getName().equals(node)
                                ? services.getIndexer().listKeys()
                                : List.of(),
                        (Node n) -> n.getStatus() == null
                                ? List.of()
                                : Objects.requireNonNullElse(n.getStatus().getAddresses(), List.of()))
                .metrics(metrics)
                // start-up and bursts: up to this many queued services planned together, one transaction
                .batch(batch)
                .build();
        self.add(controller);
        this.nbListener = update -> keysOf(update).forEach(controller::enqueue);
    }

    /**
     * Registers the EndpointSlice index on {@code informers} and starts the informers of {@link #KINDS} (before
     * {@link #start}, so they list while the zone starts).
     */
    public static void prepare(SharedInformers informers) {
        informers.index(EndpointSlice.class, Map.of(ServiceReconciler.BY_SERVICE, ServiceReconciler::serviceKeyOf));
        informers.start(KINDS);
    }

    /**
     * Starts reconciling every service (and the groups) of the zone; the informers must be synced.
     *
     * @param batch the most queued services planned together, in one transaction
     */
    public static ServiceController start(
            String node,
            SharedInformers informers,
            ZoneDatabases dbs,
            EventSink events,
            ControllerMetrics metrics,
            int batch) {
        return start(node, informers, dbs, events, metrics, batch, ns -> Optional.empty());
    }

    /**
     * As above, in a zone with user-defined networks.
     *
     * @param networks a namespace's primary user-defined network, if it has one ({@link NetworkServices})
     */
    public static ServiceController start(
            String node,
            SharedInformers informers,
            ZoneDatabases dbs,
            EventSink events,
            ControllerMetrics metrics,
            int batch,
            Function<String, Optional<NetworkServices.Target>> networks) {
        prepare(informers);
        ServiceController sc = new ServiceController(node, informers, dbs, events, metrics, batch, networks);
        dbs.nbCache().addListener(sc.nbListener);
        sc.controller.start();
        sc.controller.enqueue(ServiceReconciler.GROUPS);
        // every service, and every service a kovn load balancer names (stale ones of deleted services)
        Set<String> keys =
                new TreeSet<>(informers.informer(Service.class).getIndexer().listKeys());
        dbs.nbCache()
                .table(LoadBalancer.TABLE_NAME)
                .select(ServiceRows.OWNER::owns)
                .forEach(r -> ServiceRows.serviceOf(r).ifPresent(keys::add));
        keys.forEach(sc.controller::enqueue);
        LOG.info("services of zone {} started: {} services queued", node, keys.size());
        return sc;
    }

    /** The keys an NB update concerns. */
    private Set<String> keysOf(CacheUpdate update) {
        Set<String> keys = new HashSet<>();
        if (update.resync()) {
            keys.add(ServiceReconciler.GROUPS);
            dbs.nbCache()
                    .table(LoadBalancer.TABLE_NAME)
                    .select(ServiceRows.OWNER::owns)
                    .forEach(r -> ServiceRows.serviceOf(r).ifPresent(keys::add));
        }
        for (RowChange c : update.changes()) {
            switch (c) {
                case RowChange.Inserted i
                when i.table().equals(LoadBalancer.TABLE_NAME) ->
                    ServiceRows.serviceOf(i.row()).ifPresent(keys::add);
                case RowChange.Updated u
                when u.table().equals(LoadBalancer.TABLE_NAME) -> {
                    ServiceRows.serviceOf(u.old()).ifPresent(keys::add);
                    ServiceRows.serviceOf(u.row()).ifPresent(keys::add);
                }
                case RowChange.Deleted d
                when d.table().equals(LoadBalancer.TABLE_NAME) ->
                    ServiceRows.serviceOf(d.old()).ifPresent(keys::add);
                case RowChange.Updated u
                when u.table().equals(LogicalSwitch.TABLE_NAME) || u.table().equals(LogicalRouter.TABLE_NAME) -> {
                    if (!Objects.equals(
                            u.old().get(LogicalSwitch.LOAD_BALANCER_GROUP),
                            u.row().get(LogicalSwitch.LOAD_BALANCER_GROUP))) {
                        keys.add(ServiceReconciler.GROUPS);
                    }
                }
                case RowChange.Updated u
                when u.table().equals(LoadBalancerGroup.TABLE_NAME) -> {
                    if (!Objects.equals(
                            u.old().get(LoadBalancerGroup.NAME), u.row().get(LoadBalancerGroup.NAME))) {
                        keys.add(ServiceReconciler.GROUPS);
                    }
                }
                default -> {
                    if (!(c instanceof RowChange.Updated)
                            && (c.table().equals(LogicalSwitch.TABLE_NAME)
                                    || c.table().equals(LogicalRouter.TABLE_NAME)
                                    || c.table().equals(LoadBalancerGroup.TABLE_NAME))) {
                        keys.add(ServiceReconciler.GROUPS);
                    }
                }
            }
        }
        return keys;
    }

    /** The reconciler (reconcile count). */
    public ServiceReconciler reconciler() {
        return reconciler;
    }

    /** Whether nothing is queued or waiting for a retry. */
    public boolean idle() {
        return controller.isIdle();
    }

    /** Queues one service's key (or {@link ServiceReconciler#GROUPS}). */
    public void enqueue(String key) {
        controller.enqueue(key);
    }

    @Override
    public void close() {
        dbs.nbCache().removeListener(nbListener);
        controller.close();
    }
}
