package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.service.NetworkServices;
import io.kovn.controller.service.ServiceController;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.Informers;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovsdb.cache.CacheListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller of one zone (one node): wires the node and pod informers (its own, or shared with the process's other
 * controllers through {@link SharedInformers}), the zone's NB/SB databases and its feature reconcilers:
 * {@link PodAddressReconciler} (pod IPAM, keyed by pod), {@link PodPortReconciler} (a pod's switch port, keyed by pod)
 * and {@link ZoneTopologyReconciler} (topology and remote nodes with trust zones; one key, driven by nodes). Changes in
 * NB/SB (someone else's write, a row deleted under us) re-queue the keys they concern ({@link NorthboundChanges}), so
 * drift is repaired without a restart. The zone's {@link ServiceController} (Services and EndpointSlices to load
 * balancers) runs on the same NB cache and informers. At start every pod key is queued, those of pods that only a stale
 * port still names included: the startup sweep.
 */
public final class ZoneController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZoneController.class);
    /** The one key of the topology reconcile. */
    static final String ZONE_KEY = "zone";

    private static final List<Class<? extends HasMetadata>> KINDS = List.of(Node.class, Pod.class, Namespace.class);

    private final String node;
    private final ZoneDatabases dbs;
    private final SharedInformers.Lease lease;
    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<Pod> podInformer;
    private final SharedIndexInformer<Namespace> namespaceInformer;
    private final PodAddressReconciler podAddresses;
    private final ZoneTopologyReconciler topology;
    private final PodPortReconciler podPorts;
    private final Controller<String> zoneController;
    private final Controller<ObjectKey> podController;
    private final Controller<ObjectKey> portController;
    private final CacheListener nbListener;
    /** Whether the databases are this controller's own (else the process's, closed by whoever opened them). */
    private final boolean ownsDatabases;

    private final CacheListener sbListener;
    private volatile ServiceController services;
    private final NetworkTopologies networks;
    private final NetworkConnects connects;

    private ZoneController(
            ZoneControllerConfig config, SharedInformers.Lease lease, ZoneDatabases dbs, boolean ownsDatabases)
            throws InterruptedException {
        this.node = config.nodeName();
        this.dbs = dbs;
        this.ownsDatabases = ownsDatabases;
        this.lease = lease;
        SharedInformers informers = lease.informers();
        KubernetesClient client = informers.client();
        // the topology follows nodes alone: it is written while the pods still list (see start)
        if (!informers.sync(config.syncTimeout(), List.of(Node.class))) {
            throw new IllegalStateException("zone " + node + ": the node informer did not sync within "
                    + config.syncTimeout() + ": " + informers.notSynced(List.of(Node.class)));
        }
        this.nodeInformer = informers.informer(Node.class);
        this.podInformer = informers.informer(Pod.class);
        this.namespaceInformer = informers.informer(Namespace.class);
        this.networks = new NetworkTopologies(
                node,
                client,
                nodeInformer,
                podInformer,
                this::choiceFor,
                dbs,
                config.clusterSubnets(),
                config.controllerMetrics(),
                config.networkSegmentation());
        this.connects = new NetworkConnects(
                node, client, nodeInformer, networks::accepted, networks.informers(), dbs, config.controllerMetrics());
        List<Controller<ObjectKey>> portRef = new ArrayList<>(1);
        this.podAddresses = new PodAddressReconciler(
                node,
                client,
                podInformer.getIndexer(),
                nodeInformer.getIndexer(),
                config.events(),
                podKey -> portRef.getFirst().enqueue(ObjectKey.parse(podKey)),
                this::choiceFor,
                config.clusterSubnets());
        this.topology = new ZoneTopologyReconciler(
                node, nodeInformer.getIndexer(), dbs, config.events(), config.metrics(), config.clusterSubnets());
        this.zoneController = Controller.builder("zone-" + node, topology)
                .watch(nodeInformer, n -> List.of(ZONE_KEY))
                .metrics(config.controllerMetrics())
                .build();
        this.podController = perPod("zone-pods-" + node, podAddresses, config)
                .workers(config.addressWorkers())
                .build();
        this.podPorts = new PodPortReconciler(node, podAddresses, dbs, networks::accepted);
        // one pod alone is written by itself; pods queued together (start-up, a burst) in one transaction
        this.portController = perPod("zone-pod-ports-" + node, podPorts, config)
                .workers(config.podWorkers())
                .batch(config.portBatch())
                .build();
        portRef.add(portController);
        this.nbListener = update -> {
            NorthboundChanges changes = NorthboundChanges.of(
                    ZoneDatabases.forZone(update),
                    node,
                    uuid -> dbs.nbCache()
                            .table(LogicalSwitchPort.TABLE_NAME)
                            .get(uuid)
                            .map(PodPortModel.OWNER::owns)
                            .orElse(false));
            if (changes.topology()) {
                zoneController.enqueue(ZONE_KEY);
            }
            if (changes.allPods()) {
                podAddresses.podsOnNode().forEach(portController::enqueue);
            }
            changes.pods().forEach(portController::enqueue);
        };
        this.sbListener = update -> zoneController.enqueue(ZONE_KEY);
    }

    /** A controller keyed by the node's pods: each pod's events, and every pod when the node changes. */
    private Controller.Builder<ObjectKey> perPod(
            String name, Reconciler<ObjectKey> reconciler, ZoneControllerConfig config) {
        Controller.Builder<ObjectKey> builder = Controller.builder(name, reconciler)
                .watch(podInformer, (Pod p) -> onNode(p) ? List.of(ObjectKey.of(p)) : List.of(), PodView::zoneFields)
                .watch(
                        nodeInformer,
                        (Node n) -> n.getMetadata().getName().equals(node) ? podAddresses.podsOnNode() : List.of())
                // a pod's network follows its namespace's labels and the accepted networks
                .watch(
                        namespaceInformer,
                        (Namespace n) -> podAddresses.podsOnNode().stream()
                                .filter(k ->
                                        k.namespace().equals(n.getMetadata().getName()))
                                .toList(),
                        (Namespace n) -> n.getMetadata().getLabels());
        for (SharedIndexInformer<GenericKubernetesResource> i : networks.informers()) {
            builder.watch(i, (GenericKubernetesResource o) -> podAddresses.podsOnNode());
        }
        return builder.metrics(config.controllerMetrics());
    }

    /**
     * Connects to the zone's databases and starts reconciling, with informers of its own.
     *
     * @param config the zone's node and options
     * @param client the Kubernetes client (not closed by this controller)
     */
    public static ZoneController start(ZoneControllerConfig config, KubernetesClient client) {
        return start(config, SharedInformers.Lease.own(client), null);
    }

    /**
     * Connects to the zone's databases and starts reconciling, on the pod and node informers of {@code informers}
     * (shared with the process's other controllers; left running on close).
     */
    public static ZoneController start(ZoneControllerConfig config, SharedInformers informers) {
        return start(config, SharedInformers.Lease.shared(informers), null);
    }

    /**
     * Starts reconciling on the informers of {@code informers} and the databases {@code dbs}, both shared with the
     * process's other controllers (the policy controller reads and writes the same NB connection) and left open on
     * close.
     */
    public static ZoneController start(ZoneControllerConfig config, SharedInformers informers, ZoneDatabases dbs) {
        return start(config, SharedInformers.Lease.shared(informers), Objects.requireNonNull(dbs));
    }

    /** @param shared the process's databases, or null to connect the zone's own */
    private static ZoneController start(
            ZoneControllerConfig config, SharedInformers.Lease lease, ZoneDatabases shared) {
        long t0 = System.nanoTime();
        ZoneDatabases dbs;
        try {
            // the informers list while the NB and SB monitors sync
            lease.informers().index(Pod.class, PodAddressReconciler.nodeIndexer());
            lease.informers().start(KINDS);
            ServiceController.prepare(lease.informers());
            dbs = shared != null
                    ? shared
                    : ZoneDatabases.connect(config.nbEndpoint(), config.sbEndpoint(), config.ovsdbTimeout());
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
        long connected = System.nanoTime();
        ZoneController zc;
        try {
            zc = new ZoneController(config, lease, dbs, shared == null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (shared == null) {
                dbs.close();
            }
            lease.close();
            throw new IllegalStateException("interrupted while starting zone " + config.nodeName(), e);
        } catch (RuntimeException e) {
            if (shared == null) {
                dbs.close();
            }
            lease.close();
            throw e;
        }
        try {
            // The topology needs the nodes only: its first write goes out while the pods still list.
            dbs.nbCache().addListener(zc.nbListener);
            dbs.sbCache().addListener(zc.sbListener);
            zc.zoneController.start();
            zc.zoneController.enqueue(ZONE_KEY);
            zc.networks.start();
            zc.connects.start();
            long nodes = System.nanoTime();
            if (!lease.informers().sync(config.syncTimeout(), KINDS)) {
                throw new IllegalStateException("zone " + config.nodeName() + ": the pod informer did not sync within "
                        + config.syncTimeout() + ": " + lease.informers().notSynced(KINDS));
            }
            long pods = System.nanoTime();
            if (!zc.networks.synced(config.syncTimeout())) {
                throw new IllegalStateException("zone " + config.nodeName()
                        + ": the network informers did not sync within " + config.syncTimeout() + ": "
                        + zc.networks.notSynced());
            }
            // addresses never move across restarts: the allocator holds every pod's before the first reconcile
            zc.podAddresses.rebuild();
            zc.podController.start();
            zc.portController.start();
            zc.podPorts.sweep().forEach(zc.portController::enqueue);
            if (!lease.informers().sync(config.syncTimeout(), ServiceController.KINDS)) {
                throw new IllegalStateException("zone " + config.nodeName()
                        + ": the service informers did not sync within " + config.syncTimeout() + ": "
                        + lease.informers().notSynced(ServiceController.KINDS));
            }
            zc.services = ServiceController.start(
                    config.nodeName(),
                    lease.informers(),
                    dbs,
                    config.events(),
                    config.controllerMetrics(),
                    config.serviceBatch(),
                    zc::networkServices);
            LOG.info(
                    "zone {} started in {} ms (NB and SB monitors synced at {} ms, nodes listed at {} ms, pods at {} ms; NB {}, SB {})",
                    config.nodeName(),
                    ms(System.nanoTime() - t0),
                    ms(connected - t0),
                    ms(nodes - t0),
                    ms(pods - t0),
                    config.nbEndpoint(),
                    config.sbEndpoint());
            return zc;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            zc.close();
            throw new IllegalStateException("interrupted while starting zone " + config.nodeName(), e);
        } catch (RuntimeException e) {
            zc.close();
            throw e;
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    /** The zone's name (= node name). */
    public String zone() {
        return node;
    }

    /** The zone's databases (caches and write counters). */
    public ZoneDatabases databases() {
        return dbs;
    }

    /** The topology reconciler (last plan, reconcile count). */
    public ZoneTopologyReconciler topology() {
        return topology;
    }

    /** The pod port reconciler (timings of the per-pod reconciles). */
    public PodPortReconciler podPorts() {
        return podPorts;
    }

    /** The service controller (load balancers), once the zone has started. */
    public ServiceController services() {
        return services;
    }

    /**
     * The MTU an accepted network declares, found by the key a pod of {@code namespace} has it under in its
     * pod-networks ({@code <namespace>/<UDN or CUDN name>}); empty when it declares none or is not accepted.
     */
    public Optional<Integer> networkMtu(String namespace, String attachment) {
        return networks.entries().stream()
                .filter(a -> a.attachment(namespace).equals(attachment))
                .findFirst()
                .flatMap(a -> a.network().mtu());
    }

    /** Whether nothing is queued in the zone's controllers right now. */
    public boolean idle() {
        // isIdle also counts keys waiting for a retry or a requeue (a stale cache's), unlike queueDepth
        ServiceController sc = services;
        return zoneController.isIdle()
                && podController.isIdle()
                && portController.isIdle()
                && networks.idle()
                && connects.idle()
                && (sc == null || sc.idle());
    }

    /** Queues a topology reconcile (e.g. after an operator's change outside Kubernetes). */
    public void resync() {
        zoneController.enqueue(ZONE_KEY);
    }

    /**
     * A namespace's primary user-defined network as its services need it (their load balancers go on its switch here).
     */
    private Optional<NetworkServices.Target> networkServices(String namespace) {
        if (!(choiceFor(namespace) instanceof PodNetworkChoice.Primary(var network, String attachment)))
            return Optional.empty();
        var scope = PodPortModel.scope(network);
        return Optional.of(new NetworkServices.Target(
                network.name(), scope.prefix(), PodPortModel.networkSwitch(scope, network, node, dbs.nbState())));
    }

    /** The network a pod of this namespace is given. */
    private PodNetworkChoice choiceFor(String namespace) {
        Namespace ns = namespaceInformer.getIndexer().getByKey(namespace);
        return PodNetworkChoice.of(
                namespace,
                ns == null
                        ? null
                        : ns.getMetadata().getLabels() == null
                                ? Map.of()
                                : ns.getMetadata().getLabels(),
                networks.entries());
    }

    private boolean onNode(Pod p) {
        return p.getSpec() != null && Objects.equals(node, p.getSpec().getNodeName());
    }

    @Override
    public void close() {
        dbs.nbCache().removeListener(nbListener);
        dbs.sbCache().removeListener(sbListener);
        ServiceController sc = services;
        if (sc != null) {
            sc.close();
        }
        connects.close();
        networks.close();
        portController.close();
        podController.close();
        zoneController.close();
        lease.close();
        if (ownsDatabases) {
            dbs.close();
        }
    }

    /** Waits up to {@code timeout} for the informers to be synced; for callers that need it. */
    boolean synced(Duration timeout) throws InterruptedException {
        return Informers.waitForCacheSync(timeout, nodeInformer, podInformer);
    }
}
