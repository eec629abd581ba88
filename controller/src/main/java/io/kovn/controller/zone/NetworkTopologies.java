package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.network.AcceptedNetworks;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.network.NetworkPlan.Kind;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.Informers;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.topology.PodPort;
import io.kovn.ovsdb.cache.CacheListener;
import io.kovn.ovsdb.cache.RowChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's user-defined networks: UDN and CUDN informers (the networks the cluster manager accepted,
 * {@link AcceptedNetworks}) and one {@link NetworkTopologyReconciler} key per network. A network's object queues its
 * key; a node change queues every network (subnets, remote nodes); a change of a network's row in NB (someone else's
 * write, a row deleted under us) queues it. At start, networks that only NB rows still name are queued too, so one
 * deleted while the zone was down loses its rows. With network segmentation off the informers are never started and no
 * network is accepted: the same reconcile then removes every network's rows.
 */
final class NetworkTopologies implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkTopologies.class);

    private final String zone;
    private final ZoneDatabases dbs;
    private final SharedIndexInformer<GenericKubernetesResource> udns;
    private final SharedIndexInformer<GenericKubernetesResource> cudns;
    private final NetworkTopologyReconciler reconciler;
    private final Controller<String> controller;
    private final CacheListener nbListener;
    private final SharedIndexInformer<Pod> pods;
    private final Function<String, PodNetworkChoice> choices;
    private final boolean enabled;
    /** Bumped by every UDN and CUDN event, before the informer's handlers queue anything. */
    private final AtomicLong version = new AtomicLong();

    private volatile Memo memo;

    /**
     * @param pods the pod informer (a Layer2 network's switch holds its pods on other nodes)
     * @param choices the network of a namespace's pods
     * @param enabled whether user-defined networks are served (off: UDNs and CUDNs are not watched)
     */
    NetworkTopologies(
            String zone,
            KubernetesClient client,
            SharedIndexInformer<Node> nodes,
            SharedIndexInformer<Pod> pods,
            Function<String, PodNetworkChoice> choices,
            ZoneDatabases dbs,
            List<IpPrefix> clusterSubnets,
            ControllerMetrics metrics,
            boolean enabled) {
        this.enabled = enabled;
        this.pods = pods;
        this.choices = choices;
        this.zone = zone;
        this.dbs = dbs;
        this.udns = Informers.retrying(client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inAnyNamespace()
                .runnableInformer(0));
        this.cudns = Informers.retrying(client.genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                .runnableInformer(0));
        ResourceEventHandler<GenericKubernetesResource> bump = new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource o) {
                version.incrementAndGet();
            }

            @Override
            public void onUpdate(GenericKubernetesResource o, GenericKubernetesResource n) {
                version.incrementAndGet();
            }

            @Override
            public void onDelete(GenericKubernetesResource o, boolean unknown) {
                version.incrementAndGet();
            }
        };
        udns.addEventHandler(bump);
        cudns.addEventHandler(bump);
        this.reconciler = new NetworkTopologyReconciler(
                zone, nodes.getIndexer(), this::accepted, dbs, clusterSubnets, this::remotePods);
        var builder = Controller.builder("zone-networks-" + zone, reconciler);
        if (enabled) { // a controller's workers wait for every informer it watches to list: these only when started
            builder.watch(udns, (GenericKubernetesResource o) -> List.of(networkName(Kind.UDN, o)))
                    .watch(cudns, (GenericKubernetesResource o) -> List.of(networkName(Kind.CUDN, o)));
        }
        this.controller = builder
                // what the topology reads of a node (NodeView): its annotations and addresses, not its heartbeats
                .watch(
                        nodes,
                        (Node n) -> accepted().stream().map(Network::name).toList(),
                        (Node n) -> Arrays.asList(
                                n.getMetadata().getAnnotations(),
                                n.getStatus() == null ? null : n.getStatus().getAddresses()))
                // a Layer2 network's pods on other nodes are ports of its switch here
                .watch(
                        pods,
                        (Pod p) -> layer2NetworkOf(p).map(List::of).orElse(List.of()),
                        (Pod p) -> Arrays.asList(
                                p.getSpec() == null ? null : p.getSpec().getNodeName(), PodView.zoneFields(p)))
                .metrics(metrics)
                // start-up and node changes queue every network: planned together, one transaction
                .batch(Network.MAX_ID)
                .build();
        // drift: a network's row changed or deleted under us queues that network
        this.nbListener = update -> {
            if (update.resync()) reconciler.networksWithRows().forEach(controller::enqueue);
            for (RowChange c : update.changes()) {
                switch (c) {
                    case RowChange.Inserted i -> {
                        NetworkTopologyReconciler.networkOf(i.row()).ifPresent(controller::enqueue);
                        // the node's gateway router appeared: every network's gateway attaches to it
                        if (i.table().equals(LogicalRouter.TABLE_NAME) && ZoneModel.OWNER.owns(i.row())) {
                            accepted().forEach(n -> controller.enqueue(n.name()));
                        }
                    }
                    case RowChange.Updated u -> {
                        NetworkTopologyReconciler.networkOf(u.old()).ifPresent(controller::enqueue);
                        NetworkTopologyReconciler.networkOf(u.row()).ifPresent(controller::enqueue);
                    }
                    case RowChange.Deleted d ->
                        NetworkTopologyReconciler.networkOf(d.old()).ifPresent(controller::enqueue);
                }
            }
        };
    }

    /** The Layer2 network of a pod on another node, if it has one. */
    private Optional<String> layer2NetworkOf(Pod p) {
        if (p.getSpec() == null
                || p.getSpec().getNodeName() == null
                || p.getSpec().getNodeName().equals(zone)
                || entries().stream().noneMatch(a -> a.network().topology() == Network.Topology.LAYER2)) {
            return Optional.empty(); // most pods, and every pod of a cluster without Layer2 networks
        }
        return choices.apply(p.getMetadata().getNamespace()) instanceof PodNetworkChoice.Primary(Network n, String a)
                        && n.topology() == Network.Topology.LAYER2
                ? Optional.of(n.name())
                : Optional.empty();
    }

    /** A Layer2 network's running pods on other nodes, with the addresses their annotations state. */
    private List<NetworkTopologyReconciler.RemotePod> remotePods(Network network) {
        List<NetworkTopologyReconciler.RemotePod> out = new ArrayList<>();
        for (Pod p : pods.getIndexer().list()) {
            String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
            if (node == null || node.equals(zone) || !PodView.served(p, node)) continue;
            if (!(choices.apply(p.getMetadata().getNamespace())
                            instanceof PodNetworkChoice.Primary(Network n, String attachment))
                    || !n.name().equals(network.name())) continue;
            PodView.networks(p)
                    .map(a -> a.byNetwork().get(attachment))
                    .ifPresent(entry -> out.add(new NetworkTopologyReconciler.RemotePod(
                            node,
                            attachment,
                            new PodPort(
                                    p.getMetadata().getNamespace(),
                                    p.getMetadata().getName(),
                                    entry.macAddress(),
                                    entry.ipAddresses()))));
        }
        return out;
    }

    /** The accepted networks as the informers have them now. */
    List<Network> accepted() {
        return entries().stream().map(AcceptedNetworks.Accepted::network).toList();
    }

    /**
     * The accepted networks and their declarations as the informers have them now: read again only after a UDN or CUDN
     * event (every pod's reconcile asks).
     */
    List<AcceptedNetworks.Accepted> entries() {
        if (!enabled) return List.of();
        long v = version.get();
        Memo m = memo;
        if (m != null && m.version() == v) return m.entries();
        List<AcceptedNetworks.Accepted> read = AcceptedNetworks.entries(
                udns.getIndexer().list(), cudns.getIndexer().list());
        memo = new Memo(v, read);
        return read;
    }

    private record Memo(long version, List<AcceptedNetworks.Accepted> entries) {}

    /** The UDN and CUDN informers (pods follow their networks too); none when network segmentation is off. */
    List<SharedIndexInformer<GenericKubernetesResource>> informers() {
        return enabled ? List.of(udns, cudns) : List.of();
    }

    /** Waits for the UDN and CUDN informers' first list. */
    boolean synced(Duration timeout) throws InterruptedException {
        return !enabled || Informers.waitForCacheSync(timeout, udns, cudns);
    }

    /** The UDN and CUDN informers that have not listed yet, with their last errors. */
    String notSynced() {
        return enabled
                ? Informers.notSynced(Map.of("UserDefinedNetwork", udns, "ClusterUserDefinedNetwork", cudns))
                : "";
    }

    void start() {
        if (enabled) {
            udns.start();
            cudns.start();
        }
        controller.start();
        dbs.nbCache().addListener(nbListener);
        Set<String> stale = reconciler.networksWithRows();
        stale.forEach(controller::enqueue);
        LOG.info(
                enabled
                        ? "user-defined networks started in zone {}: {} networks with rows in NB queued"
                        : "user-defined networks are disabled in zone {}: the rows of {} networks are removed",
                zone,
                stale.size());
    }

    boolean idle() {
        return controller.isIdle();
    }

    private static String networkName(Kind kind, GenericKubernetesResource o) {
        return NetworkPlan.networkName(
                kind, o.getMetadata().getNamespace(), o.getMetadata().getName());
    }

    @Override
    public void close() {
        dbs.nbCache().removeListener(nbListener);
        controller.close();
        udns.close();
        cudns.close();
    }
}
