package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.controller.network.Network;
import io.kovn.k8s.runtime.BatchReconciler;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.sb.Chassis;
import io.kovn.ovn.topology.DesiredRow;
import io.kovn.ovn.topology.Layer2Topology;
import io.kovn.ovn.topology.LocalNode;
import io.kovn.ovn.topology.NetworkGateway;
import io.kovn.ovn.topology.NetworkScope;
import io.kovn.ovn.topology.PodPort;
import io.kovn.ovn.topology.RemoteNode;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.PlanOutcome.Stale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One user-defined network's topology in the zone, keyed by the network's name: the same {@link ZoneTopology} function
 * as the default network's, in the network's {@link NetworkScope}, on the local node's and the programmed remote nodes'
 * subnets of that network (their {@code k8s.ovn.org/node-subnets} entry). Its rows are the network controller's alone,
 * so networks come and go without touching each other: a network that is gone (or not accepted) has no desired rows,
 * and one transaction deletes what it had. A network whose node subnet the cluster manager has not written yet waits
 * for it.
 *
 * <p>A Layer2 network is {@link Layer2Topology}'s rows, which need no node subnet.
 */
public final class NetworkTopologyReconciler implements BatchReconciler<String> {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkTopologyReconciler.class);

    private final String zone;
    private final Indexer<Node> nodes;
    private final Supplier<List<Network>> networks;
    private final ZoneDatabases dbs;
    private final List<IpPrefix> clusterSubnets;
    private final ZoneModel.Memo memo = new ZoneModel.Memo();
    private final Function<Network, List<RemotePod>> remotePods;

    /**
     * A pod of a Layer2 network on another node, as this zone's switch of that network needs it.
     *
     * @param node the pod's node
     * @param attachment its key of the network in {@code pod-networks}
     * @param port its addresses on the network
     */
    record RemotePod(String node, String attachment, PodPort port) {}

    /**
     * @param networks the accepted user-defined networks, as the zone's informers have them now
     * @param clusterSubnets the default network's (the local node's view needs them)
     */
    public NetworkTopologyReconciler(
            String zone,
            Indexer<Node> nodes,
            Supplier<List<Network>> networks,
            ZoneDatabases dbs,
            List<IpPrefix> clusterSubnets) {
        this(zone, nodes, networks, dbs, clusterSubnets, n -> List.of());
    }

    /** @param remotePods each Layer2 network's pods on other nodes */
    NetworkTopologyReconciler(
            String zone,
            Indexer<Node> nodes,
            Supplier<List<Network>> networks,
            ZoneDatabases dbs,
            List<IpPrefix> clusterSubnets,
            Function<Network, List<RemotePod>> remotePods) {
        this.remotePods = remotePods;
        this.zone = zone;
        this.nodes = nodes;
        this.networks = networks;
        this.dbs = dbs;
        this.clusterSubnets = List.copyOf(clusterSubnets);
    }

    /** The names of the networks that have rows in the zone's NB (found by their owner controller). */
    public Set<String> networksWithRows() {
        Set<String> names = new TreeSet<>();
        for (String table : ZoneModel.NB_TABLES) {
            for (Row r : dbs.nbCache().table(table).rows()) {
                networkOf(r).ifPresent(names::add);
            }
        }
        return names;
    }

    /** The user-defined network whose controller owns {@code row}, if one does. */
    static Optional<String> networkOf(Row row) {
        return row.stringMap(ObjectId.EXTERNAL_IDS_COLUMN).get(ObjectId.OWNER_CONTROLLER_KEY) instanceof String c
                ? NetworkScope.networkOfController(c)
                : Optional.empty();
    }

    @Override
    public synchronized ReconcileResult reconcile(String name) {
        return reconcileAll(List.of(name)).get(name);
    }

    /**
     * Networks queued together (start-up, a node change) in one transaction: each network's plan is made as for one
     * alone, on one view of the nodes, and the plans are applied together.
     */
    @Override
    public synchronized Map<String, ReconcileResult> reconcileAll(List<String> names) {
        long t0 = System.nanoTime();
        Map<String, ReconcileResult> results = new HashMap<>();
        List<Plan> plans = new ArrayList<>();
        List<String> written = new ArrayList<>();
        List<Network> accepted = networks.get();
        Optional<View> view;
        try {
            view = view();
        } catch (RuntimeException e) {
            names.forEach(name -> results.put(name, ReconcileResult.failed(e)));
            return results;
        }
        for (String name : names) {
            try {
                Optional<Plan> plan = planOf(name, accepted, view);
                if (plan.isEmpty() || plan.get().operations().isEmpty()) {
                    results.put(name, ReconcileResult.done());
                } else {
                    plans.add(plan.get());
                    written.add(name);
                }
            } catch (RuntimeException e) {
                results.put(name, ReconcileResult.failed(e));
            }
        }
        if (plans.isEmpty()) return results;
        ReconcileResult outcome;
        long planned = System.nanoTime();
        try {
            Plan all = Plan.concat(plans);
            var applied = dbs.northbound().apply(all);
            outcome =
                    applied instanceof Stale ? ReconcileResult.requeue(Duration.ofMillis(50)) : ReconcileResult.done();
            if (!(applied instanceof Stale)) {
                LOG.info(
                        "zone {}: networks {} written ({} operations; planned in {} ms, applied in {} ms)",
                        zone,
                        written,
                        all.operations().size(),
                        (planned - t0) / 1_000_000,
                        (System.nanoTime() - planned) / 1_000_000);
            }
        } catch (RuntimeException e) {
            outcome = ReconcileResult.failed(e);
        }
        for (String name : written) results.put(name, outcome);
        return results;
    }

    /**
     * The nodes as every network of one batch sees them: the zone's local node and programmed remote nodes, and each of
     * these nodes' subnets by network (its {@code node-subnets}, read once).
     */
    private record View(LocalNode local, List<RemoteNode> remotes, Map<String, Map<String, List<IpPrefix>>> subnets) {
        List<IpPrefix> subnetsOf(String node, String network) {
            return subnets.getOrDefault(node, Map.of()).getOrDefault(network, List.of());
        }
    }

    /** The batch's {@link View}, empty while the local node has no allocation. */
    private Optional<View> view() {
        Set<String> foreignChassis = new HashSet<>();
        for (Row c : dbs.sbCache().table(Chassis.TABLE_NAME).rows()) {
            if (!ZoneModel.OWNER.owns(c)) foreignChassis.add(Chassis.fromRow(c).name());
        }
        ZoneModel.Peers peers = ZoneModel.peers(zone, nodes.list(), foreignChassis, memo, clusterSubnets);
        if (peers.local().isEmpty()) return Optional.empty();
        Map<String, Map<String, List<IpPrefix>>> subnets = new HashMap<>();
        subnets.put(peers.local().get().name(), subnetsOf(peers.local().get().name()));
        peers.programmed().forEach(r -> subnets.put(r.name(), subnetsOf(r.name())));
        return Optional.of(new View(peers.local().get(), peers.programmed(), subnets));
    }

    /** One network's plan against the NB cache; empty while it waits for its node subnet. */
    private Optional<Plan> planOf(String name, List<Network> accepted, Optional<View> view) {
        Optional<Network> network =
                accepted.stream().filter(n -> n.name().equals(name)).findFirst();
        NetworkScope scope = network.map(n -> NetworkScope.userDefined(
                        n.name(), n.id(), n.topology() == Network.Topology.LAYER2 ? "layer2" : "layer3"))
                .orElseGet(() -> NetworkScope.userDefined(name, 0, "layer3"));
        // its topology rows only: the network's pod ports (owner type Pod) are reconciled per pod
        Owner owner = Owner.controller(scope.controller()).withAny(Owner.OWNER_TYPE, ZoneModel.ownerTypeNames());
        List<DesiredRow> rows = List.of();
        if (network.isPresent() && network.get().topology() == Network.Topology.LAYER3) {
            Optional<List<DesiredRow>> built = view.flatMap(v -> build(network.get(), scope, v));
            if (built.isEmpty()) return Optional.empty(); // a node update brings the subnet
            rows = built.get();
        } else if (network.isPresent()) {
            rows = Layer2Topology.desired(
                    scope,
                    zone,
                    network.get().id(),
                    network.get().cidrs(),
                    view.map(v -> remotePorts(network.get(), scope, v)).orElse(List.of()));
        }
        Map<String, UnaryOperator<Desired>> attach = new HashMap<>();
        if (network.isPresent() && view.isPresent()) rows = withGateway(network.get(), scope, view.get(), rows, attach);
        List<DesiredRow> nb = ForeignChildren.preserve(rows, ZoneModel.PARENT_COLUMNS, dbs.nbState(), owner);
        return Optional.of(dbs.northbound().plan(owner, ZoneModel.toState(nb, attach)));
    }

    /**
     * The network's rows with its gateway here ({@link NetworkGateway}) when the node has one (and its gateway router
     * exists) and the network has IPv4: the network router gains its port and default route toward it; the node's
     * {@code GR_<node>} gains the link port and the SNAT to the node's address, attached by this network's plan
     * ({@code attach}) and kept by the default network's diff as another owner's children.
     */
    private List<DesiredRow> withGateway(
            Network network,
            NetworkScope scope,
            View view,
            List<DesiredRow> rows,
            Map<String, UnaryOperator<Desired>> attach) {
        var gw = view.local().gateway();
        var v4 = network.cidrs().stream()
                .filter(c -> c.family() == IpFamily.IPV4)
                .toList();
        var join = network.joinSubnets().stream()
                .filter(c -> c.family() == IpFamily.IPV4)
                .findFirst();
        if (gw.isEmpty()
                || v4.isEmpty()
                || join.isEmpty()
                || gw.get().config().ipOf(IpFamily.IPV4).isEmpty()) return rows;
        Optional<Uuid> nodeGr = ZoneModel.ownedRow(
                dbs.nbState(),
                LogicalRouter.TABLE_NAME,
                ZoneTopology.nodeId(zone, "gateway-router").primaryId(),
                ZoneModel.OWNER::owns);
        if (nodeGr.isEmpty()) return rows; // the zone's topology makes it; a node update queues the network again
        String router = network.topology() == Network.Topology.LAYER3
                ? scope.clusterRouter()
                : scope.prefix() + Layer2Topology.TRANSIT_ROUTER;
        List<IpPrefix> defaultV4 =
                clusterSubnets.stream().filter(c -> c.family() == IpFamily.IPV4).toList();
        NetworkGateway.Rows g = NetworkGateway.of(
                scope,
                network.id(),
                zone,
                router,
                v4,
                join.get(),
                gw.get().chassisId(),
                gw.get().config().ipOf(IpFamily.IPV4).get(),
                defaultV4);
        List<DesiredRow> out = new ArrayList<>();
        for (DesiredRow r : rows) {
            if (r.table().equals(LogicalRouter.TABLE_NAME)
                    && router.equals(r.columns().get(LogicalRouter.NAME))) {
                Map<String, Object> c = new HashMap<>(r.columns());
                c.put(LogicalRouter.PORTS, plus(c.get(LogicalRouter.PORTS), List.of(g.routerPort())));
                c.put(LogicalRouter.STATIC_ROUTES, plus(c.get(LogicalRouter.STATIC_ROUTES), g.routerRoutes()));
                out.add(new DesiredRow(r.table(), r.key(), c));
            } else {
                out.add(r);
            }
        }
        out.addAll(g.rows());
        attach.put(g.nodeRouterPort(), d -> d.attachTo(LogicalRouter.TABLE_NAME, nodeGr.get(), LogicalRouter.PORTS));
        attach.put(g.nodeRouterNat(), d -> d.attachTo(LogicalRouter.TABLE_NAME, nodeGr.get(), LogicalRouter.NAT));
        return out;
    }

    private static Set<Object> plus(Object set, List<?> more) {
        Set<Object> out = new HashSet<>(set instanceof Set<?> s ? s : Set.of());
        out.addAll(more);
        return Set.copyOf(out);
    }

    /**
     * The remote ports of a Layer2 network's pods on the programmed remote nodes (not on nodes this zone keeps apart:
     * trust zones hold inside networks too), keyed as their own zones key them.
     */
    private List<DesiredRow> remotePorts(Network network, NetworkScope scope, View view) {
        Map<String, String> chassis = new HashMap<>();
        view.remotes().forEach(r -> chassis.put(r.name(), r.chassisId().value()));
        List<DesiredRow> out = new ArrayList<>();
        for (RemotePod p : remotePods.apply(network)) {
            String c = chassis.get(p.node());
            if (c == null) continue;
            try {
                out.add(ZoneTopology.remotePodPort(
                        scope,
                        p.attachment(),
                        p.port(),
                        p.node(),
                        c,
                        network.tunnelKey(p.port().ips().getFirst().address())));
            } catch (IllegalArgumentException e) {
                LOG.warn(
                        "zone {}: pod {}/{} of network {} has no usable address: {}",
                        zone,
                        p.port().namespace(),
                        p.port().name(),
                        network.name(),
                        e.getMessage());
            }
        }
        return out;
    }

    /** The network's rows here, empty while the local node has no subnet of it. */
    private Optional<List<DesiredRow>> build(Network network, NetworkScope scope, View view) {
        LocalNode local = view.local();
        List<IpPrefix> localSubnets = view.subnetsOf(local.name(), network.name());
        if (localSubnets.isEmpty()) return Optional.empty();
        LocalNode here = new LocalNode(local.name(), local.id(), localSubnets, local.transit(), local.nodeIps());
        List<RemoteNode> remotes = new ArrayList<>();
        for (RemoteNode r : view.remotes()) {
            List<IpPrefix> subnets = view.subnetsOf(r.name(), network.name());
            if (subnets.isEmpty()) continue; // not allocated yet: its update queues the network again
            remotes.add(
                    new RemoteNode(r.name(), r.id(), subnets, r.transit(), r.chassisId(), r.encapIps(), r.nodeIps()));
        }
        // the remote nodes are new records on every call: a memo of earlier rows would never hit
        return Optional.of(ZoneTopology.desired(scope, here, remotes, new ZoneTopology.Memo())
                .northbound());
    }

    /** A node's subnets by network (none when its annotation is missing or unreadable). */
    private Map<String, List<IpPrefix>> subnetsOf(String node) {
        Node n = nodes.getByKey(node);
        String value = n == null || n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(OvnAnnotations.NODE_SUBNETS);
        if (value == null) return Map.of();
        try {
            return NodeSubnets.parse(value).byNetwork();
        } catch (AnnotationFormatException e) {
            return Map.of(); // the default network's reconcile reports the annotation
        }
    }
}
