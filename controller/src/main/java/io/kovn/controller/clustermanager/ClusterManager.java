package io.kovn.controller.clustermanager;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.connect.NetworkConnectController;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.NetworkController;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.Informers;
import io.kovn.k8s.runtime.Mapper;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.ovn.annotations.IpFamily;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster manager proper (run by the leader only): a node informer and the {@link NodeAllocationReconciler}. On
 * start it waits for the informer, rebuilds the allocator from the existing annotations, then reconciles every node.
 * Beside it, the {@link ZoneConditionCleanup} removes deleted nodes' {@code Ready-In-Zone-<node>} conditions from ANPs,
 * BANPs and ClusterNetworkPolicies (it never holds up allocation, e.g. when their CRDs are not installed). User-defined
 * networks ({@link NetworkController}) and ClusterNetworkConnects ({@link NetworkConnectController}) run beside them.
 * Each of these features can be switched off ({@link ClusterManagerConfig}): its controller is then not made at all.
 */
public final class ClusterManager implements AutoCloseable {
    private final SharedIndexInformer<Node> informer;
    private final NodeAllocator allocator;
    private final Controller<ObjectKey> controller;
    private final ZoneConditionCleanup conditionCleanup;
    private final NetworkController networks;
    private final NetworkConnectController connects;

    private ClusterManager(KubernetesClient client, ClusterManagerConfig config, EventSink events, Duration syncTimeout)
            throws InterruptedException {
        this.informer = client.nodes().runnableInformer(0);
        informer.start();
        if (!Informers.waitForCacheSync(syncTimeout, informer)) {
            informer.close();
            throw new IllegalStateException("node informer did not sync within " + syncTimeout);
        }
        this.allocator = new NodeAllocator(config);
        NodeAllocationReconciler reconciler =
                new NodeAllocationReconciler(client, informer.getIndexer(), allocator, events);
        reconciler.restore();
        this.controller = Controller.builder("cluster-manager", reconciler)
                .watch(informer, Mapper.<Node>self())
                .workers(2)
                .metrics(config.controllerMetrics())
                .build();
        // A deleted node frees values: give nodes that found a range full another chance at once.
        reconciler.onRelease(() -> unallocated().forEach(controller::enqueue));
        this.conditionCleanup = config.adminNetworkPolicies()
                ? new ZoneConditionCleanup(client, informer, config.controllerMetrics(), syncTimeout)
                : null;
        if (!config.networkSegmentation()) {
            this.networks = null;
            this.connects = null;
            return;
        }
        Set<IpFamily> families = EnumSet.noneOf(IpFamily.class);
        config.clusterNetworks().forEach(n -> families.add(n.family()));
        List<NetworkPlan.Reserved> reserved = NetworkPlan.Reserved.ofCluster(
                config.clusterNetworks().stream().map(ClusterNetwork::cidr).toList(), config.serviceNetworks());
        this.networks = new NetworkController(
                client, reserved, families, events, config.controllerMetrics(), this::networksChanged);
        this.connects = new NetworkConnectController(
                client,
                reserved,
                families,
                config.enableConnectingNetworks(),
                events,
                config.controllerMetrics(),
                networks.informers());
    }

    /**
     * User-defined networks came or went: every node gets node subnets of each Layer3 network and an address range of
     * each Layer2 one ({@link Network#nodeRanges}).
     */
    private void networksChanged(List<Network> accepted) {
        Map<String, List<ClusterNetwork>> layer3 = new HashMap<>();
        accepted.forEach(n -> layer3.put(n.name(), n.nodeRanges()));
        Map<String, Map<String, String>> annotations = new LinkedHashMap<>();
        informer.getIndexer().list().stream()
                .sorted(Comparator.comparing(
                                (Node n) -> String.valueOf(n.getMetadata().getCreationTimestamp()))
                        .thenComparing(n -> n.getMetadata().getName()))
                .forEach(n -> annotations.put(
                        n.getMetadata().getName(),
                        n.getMetadata().getAnnotations() == null
                                ? Map.of()
                                : n.getMetadata().getAnnotations()));
        if (allocator.networks(layer3, annotations)) {
            informer.getIndexer().list().forEach(n -> controller.enqueue(ObjectKey.of(n)));
        }
    }

    /** Starts the informer and the reconcile workers. */
    public static ClusterManager start(KubernetesClient client, ClusterManagerConfig config, EventSink events) {
        try {
            ClusterManager cm = new ClusterManager(client, config, events, Duration.ofSeconds(30));
            cm.controller.start();
            if (cm.conditionCleanup != null) cm.conditionCleanup.start();
            if (cm.networks != null) cm.networks.start();
            if (cm.connects != null) cm.connects.start();
            return cm;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the cluster manager", e);
        }
    }

    /** The allocation state (for tests and diagnostics). */
    public NodeAllocator allocator() {
        return allocator;
    }

    /** The user-defined networks (for tests and diagnostics); null when network segmentation is off. */
    public NetworkController networks() {
        return networks;
    }

    /** The ClusterNetworkConnects (for tests and diagnostics); null when network segmentation is off. */
    public NetworkConnectController connects() {
        return connects;
    }

    /** The cleanup of deleted nodes' zone conditions (for tests); null when AdminNetworkPolicies are off. */
    ZoneConditionCleanup conditionCleanup() {
        return conditionCleanup;
    }

    private List<ObjectKey> unallocated() {
        return informer.getIndexer().list().stream()
                .filter(n -> allocator.allocationOf(n.getMetadata().getName()).isEmpty())
                .map(ObjectKey::of)
                .toList();
    }

    @Override
    public void close() {
        if (connects != null) connects.close();
        if (networks != null) networks.close();
        if (conditionCleanup != null) conditionCleanup.close();
        controller.close();
        informer.close();
    }
}
