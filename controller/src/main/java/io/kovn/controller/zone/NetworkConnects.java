package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.network.Network;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.Informers;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.nb.LoadBalancer;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovsdb.cache.CacheListener;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's ClusterNetworkConnects: a CNC informer and one {@link NetworkConnectReconciler} key per CNC. A CNC's
 * object queues its key; the local node's id, a change of the networks, a network router or a network's ClusterIP load
 * balancer appearing or going queues every CNC; a change of a CNC's own rows in NB queues it (drift). At start the CNCs
 * that only NB rows still name are queued too, so one deleted while the zone was down loses its rows.
 */
final class NetworkConnects implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkConnects.class);

    private final String zone;
    private final ZoneDatabases dbs;
    private final SharedIndexInformer<GenericKubernetesResource> cncs;
    private final NetworkConnectReconciler reconciler;
    private final Controller<String> controller;
    private final CacheListener nbListener;

    /**
     * @param networks the accepted networks (as the zone's network informers have them)
     * @param networkInformers the UDN and CUDN informers: a network's change may change every CNC
     */
    NetworkConnects(
            String zone,
            KubernetesClient client,
            SharedIndexInformer<Node> nodes,
            Supplier<List<Network>> networks,
            List<SharedIndexInformer<GenericKubernetesResource>> networkInformers,
            ZoneDatabases dbs,
            ControllerMetrics metrics) {
        this.zone = zone;
        this.dbs = dbs;
        this.cncs = Informers.retrying(client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .runnableInformer(0));
        this.reconciler = new NetworkConnectReconciler(zone, cncs.getIndexer(), nodes.getIndexer(), networks, dbs);
        Controller.Builder<String> b = Controller.builder("zone-network-connects-" + zone, reconciler)
                .watch(
                        cncs,
                        (GenericKubernetesResource o) -> List.of(o.getMetadata().getName()),
                        (GenericKubernetesResource o) -> Arrays.asList(
                                o.getMetadata().getAnnotations(),
                                o.getAdditionalProperties().get("spec"),
                                o.getMetadata().getDeletionTimestamp()))
                .watch(
                        nodes,
                        (Node n) -> n.getMetadata().getName().equals(zone) ? all() : List.of(),
                        (Node n) -> n.getMetadata().getAnnotations() == null
                                ? null
                                : n.getMetadata().getAnnotations().get(OvnAnnotations.NODE_ID));
        for (SharedIndexInformer<GenericKubernetesResource> i : networkInformers) {
            b.watch(i, (GenericKubernetesResource o) -> all());
        }
        this.controller = b.metrics(metrics).build();
        this.nbListener = update -> {
            if (update.resync()) reconciler.connectsWithRows().forEach(controller::enqueue);
            for (RowChange c : update.changes()) {
                switch (c) {
                    case RowChange.Inserted i -> changed(i.table(), i.row());
                    case RowChange.Updated u -> {
                        NetworkConnectReconciler.cncOf(u.old()).ifPresent(controller::enqueue);
                        NetworkConnectReconciler.cncOf(u.row()).ifPresent(controller::enqueue);
                        if (u.table().equals(LoadBalancer.TABLE_NAME) && networkBalancer(u.row()))
                            all().forEach(controller::enqueue);
                    }
                    case RowChange.Deleted d -> changed(d.table(), d.old());
                }
            }
        };
    }

    /** A row inserted or deleted: a CNC's own, or a network's router (members come and go). */
    private void changed(String table, Row row) {
        NetworkConnectReconciler.cncOf(row).ifPresent(controller::enqueue);
        if (table.equals(LogicalRouter.TABLE_NAME)
                        && NetworkTopologyReconciler.networkOf(row).isPresent()
                || table.equals(LoadBalancer.TABLE_NAME) && networkBalancer(row)) {
            all().forEach(controller::enqueue); // a network's router (members), or its ClusterIP load balancer
            // (ServiceNetwork)
        }
    }

    /** A network's load balancer (a service's on a user-defined network), not a CNC's copy of one. */
    private static boolean networkBalancer(Row row) {
        return row.stringMap(LoadBalancer.EXTERNAL_IDS).containsKey("k8s.ovn.org/network")
                && NetworkConnectReconciler.cncOf(row).isEmpty();
    }

    private List<String> all() {
        return cncs.getIndexer().listKeys();
    }

    void start() {
        cncs.start();
        controller.start();
        dbs.nbCache().addListener(nbListener);
        Set<String> stale = reconciler.connectsWithRows();
        stale.forEach(controller::enqueue);
        LOG.info("cluster network connects started in zone {}: {} with rows in NB queued", zone, stale.size());
    }

    boolean idle() {
        return controller.isIdle();
    }

    @Override
    public void close() {
        dbs.nbCache().removeListener(nbListener);
        controller.close();
        cncs.close();
    }
}
