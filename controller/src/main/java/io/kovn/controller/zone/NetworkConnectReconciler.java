package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.controller.connect.ConnectSpec;
import io.kovn.controller.connect.ConnectedPairs;
import io.kovn.controller.connect.NetworkConnections;
import io.kovn.controller.network.Network;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NetworkConnectSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LoadBalancer;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.topology.ConnectServices;
import io.kovn.ovn.topology.ConnectTopology;
import io.kovn.ovn.topology.DesiredRow;
import io.kovn.ovn.topology.Layer2Topology;
import io.kovn.ovn.topology.NetworkScope;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.PlanOutcome.Stale;
import io.kovn.ovsdb.ops.Condition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ClusterNetworkConnect's rows in the zone ({@link ConnectTopology}), keyed by the CNC's name. It follows what the
 * cluster manager wrote on the CNC (its tunnel key and each selected network's block, {@link NetworkConnectSubnets}): a
 * zone never selects networks itself. A network counts once its router exists here; the pairs whose subnets overlap are
 * left unconnected ({@link ConnectedPairs}; the cluster manager reports them). A gone CNC, or one without annotations,
 * has no desired rows: one transaction deletes what it had, ports and policies on the networks' routers included.
 */
final class NetworkConnectReconciler implements Reconciler<String> {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkConnectReconciler.class);

    /** The CNCs' ACLs and address sets (service-only connectivity), in the zone's NB cache. */
    static final List<TableMonitor> MONITORS = List.of(
            TableMonitor.where(
                    Acl.TABLE_NAME, Condition.externalId(ObjectId.OWNER_CONTROLLER_KEY, ConnectTopology.CONTROLLER)),
            TableMonitor.where(
                    AddressSet.TABLE_NAME,
                    Condition.externalId(ObjectId.OWNER_CONTROLLER_KEY, ConnectTopology.CONTROLLER)));

    private static final List<String> TABLES = List.of(LoadBalancer.TABLE_NAME, Acl.TABLE_NAME, AddressSet.TABLE_NAME);

    private final String zone;
    private final Indexer<GenericKubernetesResource> cncs;
    private final Indexer<Node> nodes;
    private final Supplier<List<Network>> networks;
    private final ZoneDatabases dbs;

    NetworkConnectReconciler(
            String zone,
            Indexer<GenericKubernetesResource> cncs,
            Indexer<Node> nodes,
            Supplier<List<Network>> networks,
            ZoneDatabases dbs) {
        this.zone = zone;
        this.cncs = cncs;
        this.nodes = nodes;
        this.networks = networks;
        this.dbs = dbs;
    }

    /** The CNCs that have rows in the zone's NB. */
    Set<String> connectsWithRows() {
        Set<String> names = new TreeSet<>();
        for (String table :
                Stream.concat(ZoneModel.NB_TABLES.stream(), TABLES.stream()).toList()) {
            for (Row r : dbs.nbCache().table(table).rows()) cncOf(r).ifPresent(names::add);
        }
        return names;
    }

    /** The CNC whose rows {@code row} is one of, if it is. */
    static Optional<String> cncOf(Row row) {
        Map<String, String> ids = row.stringMap(ObjectId.EXTERNAL_IDS_COLUMN);
        return ConnectTopology.CONTROLLER.equals(ids.get(ObjectId.OWNER_CONTROLLER_KEY))
                        && ids.get(ObjectId.NAME_KEY) instanceof String n
                ? Optional.of(n)
                : Optional.empty();
    }

    @Override
    public synchronized ReconcileResult reconcile(String cnc) {
        Owner owner = Owner.controller(ConnectTopology.CONTROLLER)
                .with(Owner.OWNER_TYPE, OwnerType.NETWORK_CONNECT.wireName())
                .with(Owner.NAME, cnc);
        Map<String, UnaryOperator<Desired>> attach = new HashMap<>();
        List<DesiredRow> rows;
        try {
            rows = desired(cnc, attach);
        } catch (IllegalArgumentException e) {
            LOG.warn("zone {}: ClusterNetworkConnect {} cannot be programmed: {}", zone, cnc, e.getMessage());
            rows = List.of(); // what the CNC states cannot be built: nothing half-built stays
            attach.clear();
        }
        Plan plan = dbs.northbound().plan(owner, ZoneModel.toState(rows, attach, TABLES));
        if (plan.operations().isEmpty()) return ReconcileResult.done();
        var applied = dbs.northbound().apply(plan);
        if (applied instanceof Stale) return ReconcileResult.requeue(Duration.ofMillis(50));
        LOG.info(
                "zone {}: ClusterNetworkConnect {} written ({} operations)",
                zone,
                cnc,
                plan.operations().size());
        return ReconcileResult.done();
    }

    private List<DesiredRow> desired(String cnc, Map<String, UnaryOperator<Desired>> attach) {
        GenericKubernetesResource o = cncs.getByKey(cnc);
        if (o == null || o.getMetadata().getDeletionTimestamp() != null) return List.of();
        Map<String, String> annotations = o.getMetadata().getAnnotations() == null
                ? Map.of()
                : o.getMetadata().getAnnotations();
        String key = annotations.get(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY);
        String subnets = annotations.get(OvnAnnotations.NETWORK_CONNECT_SUBNET);
        if (key == null || subnets == null || subnets.isBlank())
            return List.of(); // the cluster manager has not allocated
        if (NetworkConnections.disabled(o)) return List.of(); // the feature was turned off after the allocation
        long routerKey;
        NetworkConnectSubnets blocks;
        try {
            routerKey = Long.parseLong(key.strip());
            blocks = NetworkConnectSubnets.parse(subnets);
        } catch (NumberFormatException | AnnotationFormatException e) {
            throw new IllegalArgumentException("unreadable annotations: " + e.getMessage(), e);
        }
        Optional<Integer> nodeId = nodeId();
        if (nodeId.isEmpty()) return List.of(); // a node update queues every CNC
        ConnectSpec spec =
                ConnectSpec.parse(o.getAdditionalProperties().get("spec")); // what the cluster manager allocated from

        List<ConnectTopology.Member> members = new ArrayList<>();
        Map<String, Uuid> routers = new HashMap<>();
        Map<String, Network> selected = new HashMap<>();
        Map<Integer, Uuid> switches = new HashMap<>();
        List<ConnectServices.Member> serviceMembers = new ArrayList<>();
        for (Network n : networks.get()) {
            boolean layer2 = n.topology() == Network.Topology.LAYER2;
            List<IpPrefix> netBlocks = blocks.of(NetworkConnectSubnets.networkKey(layer2, n.id()));
            if (netBlocks.isEmpty()) continue;
            selected.put(n.name(), n);
            NetworkScope scope = NetworkScope.userDefined(n.name(), n.id(), layer2 ? "layer2" : "layer3");
            String router = layer2 ? scope.prefix() + Layer2Topology.TRANSIT_ROUTER : scope.clusterRouter();
            Optional<Uuid> routerRow = networkRouter(router, scope.controller());
            if (routerRow.isEmpty()) continue; // its topology is not written yet: its insert queues the CNC
            int id = layer2 ? 0 : nodeId.get();
            List<IpPrefix> link = new ArrayList<>();
            long portKey = -1;
            for (IpPrefix block : netBlocks) {
                Optional<IpPrefix> l = ConnectTopology.link(block, layer2, id);
                if (l.isEmpty()) {
                    throw new IllegalArgumentException(
                            "node id " + id + " does not fit in block " + block + " of network " + n.name());
                }
                link.add(l.get());
                Optional<ConnectSpec.ConnectSubnet> cs = spec.connectSubnet(block.family());
                if (portKey < 0
                        && cs.isPresent()
                        && cs.get().cidr().contains(l.get().address())) {
                    portKey = ConnectTopology.portKey(cs.get().cidr(), cs.get().networkPrefix(), l.get(), layer2, id);
                }
            }
            if (portKey < 0)
                throw new IllegalArgumentException("the blocks of network " + n.name() + " are outside connectSubnets");
            routers.put(router, routerRow.get());
            String switchName = layer2 ? scope.prefix() + Layer2Topology.SWITCH : scope.nodeSwitch(zone);
            owned(LogicalSwitch.TABLE_NAME, switchName, scope.controller()).ifPresent(u -> {
                switches.put(n.id(), u);
                serviceMembers.add(new ConnectServices.Member(n.id(), n.cidrs()));
            });
            String podPort = layer2 ? "trtos-" + scope.prefix() + Layer2Topology.SWITCH : scope.routerToSwitch(zone);
            members.add(new ConnectTopology.Member(
                    n.name(), n.id(), layer2, router, podPort, n.cidrs(), link, id, portKey));
        }
        ConnectTopology.Rows built = ConnectTopology.desired(
                cnc,
                zone,
                routerKey,
                members,
                (a, b) -> ConnectedPairs.connects(
                        selected.get(a.network()), selected.get(b.network()), List.copyOf(selected.values())));
        attachAll(attach, built.routerPorts(), routers, LogicalRouter.TABLE_NAME, LogicalRouter.PORTS);
        attachAll(attach, built.routerPolicies(), routers, LogicalRouter.TABLE_NAME, LogicalRouter.POLICIES);
        attachAll(attach, built.routerRoutes(), routers, LogicalRouter.TABLE_NAME, LogicalRouter.STATIC_ROUTES);
        List<DesiredRow> rows = new ArrayList<>(built.rows());
        if (spec.connectivity().contains(ConnectSpec.Connectivity.SERVICE_NETWORK)
                && !built.rows().isEmpty()) {
            Map<String, Integer> ids = new HashMap<>();
            members.forEach(m -> ids.put(m.network(), m.id()));
            List<ConnectServices.Balancer> lbs = new ArrayList<>();
            for (Row lb : dbs.nbCache().table(LoadBalancer.TABLE_NAME).rows()) {
                Map<String, String> x = lb.stringMap(LoadBalancer.EXTERNAL_IDS);
                if (x.get("k8s.ovn.org/network") instanceof String net
                        && ids.containsKey(net)
                        && !ConnectTopology.CONTROLLER.equals(x.get(ObjectId.OWNER_CONTROLLER_KEY))
                        && String.valueOf(lb.get(LoadBalancer.NAME)).endsWith("_cluster")) {
                    Map<String, Object> columns = new HashMap<>();
                    for (String c : List.of(
                            LoadBalancer.VIPS,
                            LoadBalancer.PROTOCOL,
                            LoadBalancer.OPTIONS,
                            LoadBalancer.SELECTION_FIELDS)) {
                        if (lb.get(c) != null) columns.put(c, lb.get(c));
                    }
                    lbs.add(new ConnectServices.Balancer(
                            ids.get(net), String.valueOf(lb.get(LoadBalancer.NAME)), columns));
                }
            }
            ConnectServices.Rows svc = ConnectServices.desired(
                    cnc, serviceMembers, lbs, spec.connectivity().contains(ConnectSpec.Connectivity.POD_NETWORK));
            rows.addAll(svc.rows());
            attachAll(attach, svc.switchBalancers(), switches, LogicalSwitch.TABLE_NAME, LogicalSwitch.LOAD_BALANCER);
            attachAll(attach, svc.switchAcls(), switches, LogicalSwitch.TABLE_NAME, LogicalSwitch.ACLS);
        }
        return rows;
    }

    /** Attaches each row to every parent (a network's router or switch here) whose list names it. */
    private static <P> void attachAll(
            Map<String, UnaryOperator<Desired>> attach,
            Map<P, List<String>> byParent,
            Map<P, Uuid> parents,
            String table,
            String column) {
        Map<String, List<Uuid>> on = new HashMap<>();
        byParent.forEach((parent, keys) ->
                keys.forEach(k -> on.computeIfAbsent(k, x -> new ArrayList<>()).add(parents.get(parent))));
        on.forEach((k, uuids) -> attach.put(k, d -> {
            Desired out = d;
            for (Uuid u : uuids) out = out.attachTo(table, u, column);
            return out;
        }));
    }

    /** The network's router here, owned by its controller. */
    private Optional<Uuid> networkRouter(String name, String controller) {
        return owned(LogicalRouter.TABLE_NAME, name, controller);
    }

    /** A row of the network's by name, owned by its controller. */
    private Optional<Uuid> owned(String table, String name, String controller) {
        return dbs.nbCache().table(table).rows().stream()
                .filter(r -> name.equals(r.get("name")) // a switch's or a router's
                        && controller.equals(
                                r.stringMap(ObjectId.EXTERNAL_IDS_COLUMN).get(ObjectId.OWNER_CONTROLLER_KEY)))
                .map(Row::uuid)
                .min(Comparator.naturalOrder());
    }

    private Optional<Integer> nodeId() {
        Node n = nodes.getByKey(zone);
        String v = n == null || n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(OvnAnnotations.NODE_ID);
        try {
            return v == null ? Optional.empty() : Optional.of(Integer.parseInt(v.strip()));
        } catch (NumberFormatException e) {
            return Optional.empty(); // the zone's topology reports it
        }
    }
}
