package io.kovn.ovn.topology;

import static io.kovn.ovn.topology.TopologyRows.familyKey;
import static io.kovn.ovn.topology.TopologyRows.ref;
import static io.kovn.ovn.topology.TopologyRows.row;
import static io.kovn.ovn.topology.TopologyRows.strings;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalRouterPort;
import io.kovn.ovn.nb.LogicalRouterStaticRoute;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.sb.Chassis;
import io.kovn.ovn.sb.Encap;
import io.kovn.ovsdb.diff.Ref;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The interconnect topology one zone's NB and SB should hold, as a pure function of its local node and the remote nodes
 * it programs (already filtered by trust zones); and, separately, the switch port of one pod on its node
 * ({@link #podPort}).
 *
 * <p>NB: {@value TopologyNames#CLUSTER_ROUTER} with {@code rtos-<node>} (gateway = the node subnet's first address) and
 * {@code rtots-<node>}; the node switch named after the node with {@code stor-<node>};
 * {@value TopologyNames#TRANSIT_SWITCH} with the local {@code tstor-<node>} (type router) and one
 * {@code tstor-<remote>} (type remote) per remote node; one static route per remote node subnet toward its transit
 * address. SB: one {@code Chassis} per remote node ({@code other_config:is-remote=true}) with a geneve {@code Encap}
 * ({@code csum=true}) per encap IP.
 *
 * <p>Node reachability: the node switch holds the management port {@code k8s-<node>} (the node's {@code ovn-k8s-mp0},
 * address = the subnet's second address, MAC {@code 0a:58:} + its IPv4 bytes); the cluster router routes each local
 * node IP ({@code /32} or {@code /128}) to that address and each programmed remote node's IPs to its transit address,
 * where the remote zone's own route hands them to its management port. So a pod reaches exactly the nodes whose pods it
 * reaches (trust zones).
 *
 * <p>Pods' ports (owner type {@code Pod}) hang on the node switch too, but are not among the rows built here: each is
 * reconciled on its own, keyed by its pod, so a pod add does not rebuild the zone. The node switch's {@code ports} here
 * list only the topology's own ports.
 *
 * <p>When the local node has its gateway ({@link LocalNode#gateway()}), the zone also holds the reference's shared
 * gateway: {@code join}, {@code GR_<node>}, {@code ext_<node>} and their routes and SNAT (see {@link GatewayTopology});
 * each programmed remote node's GR join address is routed to its transit address.
 *
 * <p>Every row with an {@code external_ids} column carries its {@link ObjectId}'s ids; {@code Encap} has none and is
 * keyed by {@code <chassis_name>/<ip>} (see {@link #keyOf}).
 */
public final class ZoneTopology {
    /** The owner controller of every row built here. */
    public static final String CONTROLLER = ObjectId.DEFAULT_CONTROLLER;
    /** Owner types of the topology's rows: the ownership filter of the zone topology's diff. */
    public static final Set<OwnerType> OWNER_TYPES = Set.of(OwnerType.CLUSTER, OwnerType.NODE, OwnerType.REMOTE_ZONE);
    /** Owner type of a pod's switch port ({@link #podPort}), reconciled per pod. */
    public static final OwnerType POD_OWNER_TYPE = OwnerType.POD;

    private static final String ENCAP_TYPE = "geneve";

    private ZoneTopology() {}

    /**
     * The desired rows of one zone.
     *
     * @param northbound NB rows
     * @param southbound SB rows
     */
    public record Desired(List<DesiredRow> northbound, List<DesiredRow> southbound) {
        public Desired {
            northbound = List.copyOf(northbound);
            southbound = List.copyOf(southbound);
        }
    }

    /** The zone's desired topology rows; remotes in any order (output is sorted, so deterministic). */
    public static Desired desired(LocalNode local, Collection<RemoteNode> remotes) {
        return desired(local, remotes, new Memo());
    }

    /**
     * Remembers the rows of remote nodes between calls, keyed by the identity of their (immutable) input records: a
     * caller that passes the same instances while nothing changed (e.g. per Kubernetes resourceVersion) gets their rows
     * back without rebuilding or deep hashing; a new instance is simply built. Entries not used by the latest call are
     * dropped. Not thread-safe: one per zone reconcile loop.
     */
    public static final class Memo {
        private Map<RemoteNode, RemoteRows> remotes = new IdentityHashMap<>();
    }

    private record RemoteRows(List<DesiredRow> nb, List<DesiredRow> sb, Ref port, List<Ref> routes) {}

    /** {@link #desired(LocalNode, Collection)} reusing (and refreshing) {@code memo}. */
    public static Desired desired(LocalNode local, Collection<RemoteNode> remotes, Memo memo) {
        return desired(NetworkScope.DEFAULT, local, remotes, memo);
    }

    /**
     * One network's rows in the zone: the default network's ({@link NetworkScope#DEFAULT}: everything above) or a
     * user-defined Layer3 network's, named and owned by its scope: its node switch with its management port, its
     * cluster router, its transit switch and the routes to the remote nodes' subnets of that network. A user-defined
     * network has no SB rows (remote chassis are the zone's, programmed once), and neither gateway nor node routes yet.
     *
     * @param local the local node with its subnets of this network
     * @param remotes the programmed remote nodes with their subnets of this network (one memo per network)
     */
    public static Desired desired(NetworkScope scope, LocalNode local, Collection<RemoteNode> remotes, Memo memo) {
        List<RemoteNode> sortedRemotes = remotes.stream()
                .filter(r -> !r.name().equals(local.name()))
                .sorted(Comparator.comparing(RemoteNode::name))
                .toList();
        List<DesiredRow> nb = new ArrayList<>();
        List<DesiredRow> sb = new ArrayList<>();

        String node = local.name();
        ObjectId rtos = nodeId(scope, node, "rtos");
        ObjectId rtots = nodeId(scope, node, "rtots");
        ObjectId stor = nodeId(scope, node, "stor");
        ObjectId tstor = nodeId(scope, node, "tstor");
        List<Ref> routes = new ArrayList<>();
        Set<Ref> transitPorts = new LinkedHashSet<>();
        transitPorts.add(ref(LogicalSwitchPort.TABLE_NAME, tstor));

        Map<RemoteNode, RemoteRows> usedRemotes = new IdentityHashMap<>();
        for (RemoteNode r : sortedRemotes) {
            RemoteRows rows = memo.remotes.get(r);
            if (rows == null) {
                rows = remoteRows(scope, r);
            }
            usedRemotes.put(r, rows);
            transitPorts.add(rows.port());
            routes.addAll(rows.routes());
            nb.addAll(rows.nb());
            if (scope.isDefault()) sb.addAll(rows.sb());
        }
        memo.remotes = usedRemotes;

        Set<Ref> nodePorts = new LinkedHashSet<>();
        nodePorts.add(ref(LogicalSwitchPort.TABLE_NAME, stor));
        ObjectId mgmt = nodeId(scope, node, "mgmt-port");
        nodePorts.add(ref(LogicalSwitchPort.TABLE_NAME, mgmt));
        List<InetAddress> mgmtIps =
                local.subnets().stream().map(ZoneTopology::managementAddress).toList();
        String mgmtAddresses = MacAddresses.fromIp(mgmtIps.getFirst()) + " "
                + mgmtIps.stream().map(IpLiterals::format).collect(Collectors.joining(" "));
        nb.add(row(
                LogicalSwitchPort.TABLE_NAME,
                mgmt,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME, scope.managementPort(node),
                        LogicalSwitchPort.ADDRESSES, Set.of(mgmtAddresses))));
        for (InetAddress ip : scope.isDefault() ? local.nodeIps() : List.<InetAddress>of()) {
            mgmtIps.stream()
                    .filter(m -> IpFamily.of(m) == IpFamily.of(ip))
                    .findFirst()
                    .ifPresent(m -> {
                        ObjectId route = nodeId(scope, node, "node-ip-route").with(IdKey.IP, IpLiterals.format(ip));
                        routes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, route));
                        nb.add(row(
                                LogicalRouterStaticRoute.TABLE_NAME,
                                route,
                                Map.of(),
                                Map.of(
                                        LogicalRouterStaticRoute.IP_PREFIX, hostPrefix(ip),
                                        LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(m))));
                    });
        }
        List<IpPrefix> gateways = local.subnets().stream()
                .map(s -> new IpPrefix(s.addressAt(1), s.length()))
                .toList();
        nb.add(row(
                LogicalRouterPort.TABLE_NAME,
                rtos,
                Map.of(),
                Map.of(
                        LogicalRouterPort.NAME, scope.routerToSwitch(node),
                        LogicalRouterPort.MAC,
                                MacAddresses.fromIp(gateways.getFirst().address()),
                        LogicalRouterPort.NETWORKS, strings(gateways))));
        nb.add(row(
                LogicalSwitchPort.TABLE_NAME,
                stor,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME, scope.switchToRouter(node),
                        LogicalSwitchPort.TYPE, "router",
                        LogicalSwitchPort.ADDRESSES, Set.of("router"),
                        LogicalSwitchPort.OPTIONS, Map.of("router-port", scope.routerToSwitch(node)))));
        nb.add(row(
                LogicalRouterPort.TABLE_NAME,
                rtots,
                Map.of(),
                Map.of(
                        LogicalRouterPort.NAME, scope.routerToTransitSwitch(node),
                        LogicalRouterPort.MAC,
                                MacAddresses.fromIp(
                                        local.transit().all().getFirst().address()),
                        LogicalRouterPort.NETWORKS, strings(local.transit().all()))));
        nb.add(row(
                LogicalSwitchPort.TABLE_NAME,
                tstor,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME, scope.transitSwitchToRouter(node),
                        LogicalSwitchPort.TYPE, "router",
                        LogicalSwitchPort.ADDRESSES, Set.of("router"),
                        LogicalSwitchPort.OPTIONS,
                                Map.of(
                                        "router-port", scope.routerToTransitSwitch(node),
                                        "requested-tnl-key", local.id().format()))));
        nb.add(row(
                LogicalSwitch.TABLE_NAME,
                nodeId(scope, node, "switch"),
                scope.externalIds(),
                Map.of(
                        LogicalSwitch.NAME, scope.nodeSwitch(node),
                        LogicalSwitch.OTHER_CONFIG, subnetConfig(local.subnets()),
                        LogicalSwitch.PORTS, Set.copyOf(nodePorts))));
        nb.add(row(
                LogicalSwitch.TABLE_NAME,
                scope.id(OwnerType.CLUSTER, scope.transitSwitch()),
                scope.externalIds(),
                Map.of(
                        LogicalSwitch.NAME, scope.transitSwitch(),
                        LogicalSwitch.OTHER_CONFIG,
                                Map.of(
                                        "interconn-ts", scope.transitSwitch(),
                                        "requested-tnl-key", Long.toString(scope.transitSwitchKey())),
                        LogicalSwitch.PORTS, Set.copyOf(transitPorts))));
        Set<Ref> clusterRouterPorts = new LinkedHashSet<>(
                List.of(ref(LogicalRouterPort.TABLE_NAME, rtos), ref(LogicalRouterPort.TABLE_NAME, rtots)));
        if (scope.isDefault() && local.gateway().isPresent()) {
            GatewayTopology.Rows gw = GatewayTopology.of(local, local.gateway().get());
            nb.addAll(gw.nb());
            clusterRouterPorts.add(gw.clusterRouterPort());
            routes.addAll(gw.clusterRouterRoutes());
        }
        Map<String, String> routerIds = new HashMap<>(scope.externalIds());
        if (!scope.isDefault()) routerIds.put("k8s-cluster-router", "yes");
        nb.add(row(
                LogicalRouter.TABLE_NAME,
                scope.id(OwnerType.CLUSTER, scope.clusterRouter()),
                routerIds,
                Map.of(
                        LogicalRouter.NAME, scope.clusterRouter(),
                        LogicalRouter.PORTS, Set.copyOf(clusterRouterPorts),
                        LogicalRouter.STATIC_ROUTES, Set.copyOf(routes))));
        return new Desired(nb, sb);
    }

    private static RemoteRows remoteRows(NetworkScope scope, RemoteNode r) {
        List<DesiredRow> nb = new ArrayList<>();
        List<DesiredRow> sb = new ArrayList<>();
        List<Ref> routes = new ArrayList<>();
        ObjectId port = remoteId(scope, r.name(), "tstor");
        // Its GR's join address: replies to what that GR sent here (lb_force_snat_ip) go back over transit.
        for (InetAddress ip : scope.isDefault() ? r.gatewayRouterIps() : List.<InetAddress>of()) {
            r.transit().all().stream()
                    .filter(t -> t.family() == IpFamily.of(ip))
                    .findFirst()
                    .ifPresent(t -> {
                        ObjectId route =
                                remoteId(scope, r.name(), "gr-join-route").with(IdKey.IP, IpLiterals.format(ip));
                        routes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, route));
                        nb.add(row(
                                LogicalRouterStaticRoute.TABLE_NAME,
                                route,
                                Map.of("ic-node", r.name()),
                                Map.of(
                                        LogicalRouterStaticRoute.IP_PREFIX, hostPrefix(ip),
                                        LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(t.address()))));
                    });
        }
        nb.add(row(
                LogicalSwitchPort.TABLE_NAME,
                port,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME, scope.transitSwitchToRouter(r.name()),
                        LogicalSwitchPort.TYPE, "remote",
                        LogicalSwitchPort.ADDRESSES,
                                Set.of(transitAddresses(r.transit().all())),
                        LogicalSwitchPort.OPTIONS,
                                Map.of(
                                        "requested-chassis", r.chassisId().value(),
                                        "requested-tnl-key", r.id().format()))));
        for (IpPrefix subnet : r.subnets()) {
            r.transit().all().stream()
                    .filter(t -> t.family() == subnet.family())
                    .findFirst()
                    .ifPresent(t -> {
                        ObjectId route =
                                remoteId(scope, r.name(), "route").with(IdKey.IP_FAMILY, familyKey(subnet.family()));
                        routes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, route));
                        nb.add(row(
                                LogicalRouterStaticRoute.TABLE_NAME,
                                route,
                                Map.of("ic-node", r.name()),
                                Map.of(
                                        LogicalRouterStaticRoute.IP_PREFIX, subnet.toString(),
                                        LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(t.address()))));
                    });
        }
        for (InetAddress ip : scope.isDefault() ? r.nodeIps() : List.<InetAddress>of()) {
            r.transit().all().stream()
                    .filter(t -> t.family() == IpFamily.of(ip))
                    .findFirst()
                    .ifPresent(t -> {
                        ObjectId route =
                                remoteId(scope, r.name(), "node-ip-route").with(IdKey.IP, IpLiterals.format(ip));
                        routes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, route));
                        nb.add(row(
                                LogicalRouterStaticRoute.TABLE_NAME,
                                route,
                                Map.of("ic-node", r.name()),
                                Map.of(
                                        LogicalRouterStaticRoute.IP_PREFIX, hostPrefix(ip),
                                        LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(t.address()))));
                    });
        }
        List<Ref> encaps = new ArrayList<>();
        for (InetAddress ip : r.encapIps().ips()) {
            String key = encapKey(r.chassisId().value(), IpLiterals.format(ip));
            encaps.add(Ref.to(Encap.TABLE_NAME, key));
            sb.add(new DesiredRow(
                    Encap.TABLE_NAME,
                    key,
                    Map.of(
                            Encap.TYPE, ENCAP_TYPE,
                            Encap.IP, IpLiterals.format(ip),
                            Encap.CHASSIS_NAME, r.chassisId().value(),
                            Encap.OPTIONS, Map.of("csum", "true"))));
        }
        sb.add(row(
                Chassis.TABLE_NAME,
                remoteId(scope, r.name(), "chassis"),
                Map.of(),
                Map.of(
                        Chassis.NAME, r.chassisId().value(),
                        Chassis.HOSTNAME, r.name(),
                        Chassis.OTHER_CONFIG, Map.of("is-remote", "true"),
                        Chassis.ENCAPS, Set.copyOf(encaps))));
        return new RemoteRows(
                List.copyOf(nb), List.copyOf(sb), ref(LogicalSwitchPort.TABLE_NAME, port), List.copyOf(routes));
    }

    /**
     * The logical switch port of one pod: addresses and port security {@code "<mac> <ip>..."}, one address per family.
     * It belongs in the {@code ports} of the node switch ({@link #nodeId nodeId(node, "switch")}), which the caller
     * attaches it to.
     */
    public static DesiredRow podPort(PodPort p) {
        String addresses = portAddresses(p);
        return row(
                LogicalSwitchPort.TABLE_NAME,
                podId(p.namespace(), p.name()),
                Map.of("namespace", p.namespace(), "pod", "true"),
                Map.of(
                        LogicalSwitchPort.NAME, p.portName(),
                        LogicalSwitchPort.ADDRESSES, Set.of(addresses),
                        LogicalSwitchPort.PORT_SECURITY, Set.of(addresses)));
    }

    /**
     * A pod's logical switch port on its primary user-defined network, owned by that network's controller: named
     * {@link TopologyNames#userDefinedPodPort} of its attachment key, with the network's external ids. The caller
     * attaches it to the network's switch here.
     *
     * @param attachment the pod's key of the network in {@code pod-networks} ({@code <namespace>/<name>})
     */
    public static DesiredRow podPort(NetworkScope scope, String attachment, PodPort p) {
        return podPort(scope, attachment, p, OptionalLong.empty());
    }

    /**
     * As {@link #podPort(NetworkScope, String, PodPort)}, with the port's tunnel key when the switch spans zones (a
     * Layer2 network's: every zone's remote port of the pod must have the same key).
     */
    public static DesiredRow podPort(NetworkScope scope, String attachment, PodPort p, OptionalLong tunnelKey) {
        String addresses = portAddresses(p);
        Map<String, String> ids = new HashMap<>(scope.externalIds());
        ids.put("namespace", p.namespace());
        ids.put("pod", "true");
        Map<String, Object> columns = new HashMap<>(Map.of(
                LogicalSwitchPort.NAME, TopologyNames.userDefinedPodPort(attachment, p.namespace(), p.name()),
                LogicalSwitchPort.ADDRESSES, Set.of(addresses),
                LogicalSwitchPort.PORT_SECURITY, Set.of(addresses)));
        tunnelKey.ifPresent(k -> columns.put(LogicalSwitchPort.OPTIONS, Map.of("requested-tnl-key", Long.toString(k))));
        return row(LogicalSwitchPort.TABLE_NAME, podId(scope, p.namespace(), p.name()), ids, columns);
    }

    /**
     * Another zone's pod on a switch that spans zones (a Layer2 network's): a {@code remote} port bound to that node's
     * chassis, with the tunnel key the pod's own zone gave its port, so that this zone's switch delivers to it through
     * the tunnel.
     *
     * @param node the pod's node
     * @param chassis the pod's node's chassis name
     */
    public static DesiredRow remotePodPort(
            NetworkScope scope, String attachment, PodPort p, String node, String chassis, long tunnelKey) {
        String addresses = portAddresses(p);
        Map<String, String> ids = new HashMap<>(scope.externalIds());
        ids.put("namespace", p.namespace());
        return row(
                LogicalSwitchPort.TABLE_NAME,
                remoteId(scope, node, "pod").with("pod", p.namespace() + "/" + p.name()),
                ids,
                Map.of(
                        LogicalSwitchPort.NAME,
                        TopologyNames.userDefinedPodPort(attachment, p.namespace(), p.name()),
                        LogicalSwitchPort.TYPE,
                        "remote",
                        LogicalSwitchPort.ADDRESSES,
                        Set.of(addresses),
                        LogicalSwitchPort.OPTIONS,
                        Map.of("requested-chassis", chassis, "requested-tnl-key", Long.toString(tunnelKey))));
    }

    /** A pod port's {@code addresses} (and port security): {@code "<mac> <ip>..."}, one address per family. */
    private static String portAddresses(PodPort p) {
        return p.mac() + " "
                + p.ips().stream().map(i -> IpLiterals.format(i.address())).collect(Collectors.joining(" "));
    }

    /** The id of a pod's logical switch port on one network. */
    public static ObjectId podId(NetworkScope scope, String namespace, String pod) {
        return scope.id(POD_OWNER_TYPE, namespace + "/" + pod);
    }

    /**
     * The key of a current or desired row: {@code external_ids:k8s.ovn.org/id}, except {@code Encap} (no external_ids)
     * keyed by {@code <chassis_name>/<ip>}.
     */
    public static String keyOf(String table, Map<String, Object> columns) {
        if (table.equals(Encap.TABLE_NAME)) {
            return columns.get(Encap.CHASSIS_NAME) instanceof String c && columns.get(Encap.IP) instanceof String ip
                    ? encapKey(c, ip)
                    : null;
        }
        return columns.get("external_ids") instanceof Map<?, ?> ids && ids.get(ObjectId.ID_KEY) instanceof String s
                ? s
                : null;
    }

    /** The id of a default-network row describing the local node. */
    public static ObjectId nodeId(String node, String type) {
        return nodeId(NetworkScope.DEFAULT, node, type);
    }

    /** The id of one network's row describing the local node. */
    public static ObjectId nodeId(NetworkScope scope, String node, String type) {
        return scope.id(OwnerType.NODE, node).with(IdKey.TYPE, type);
    }

    /** The id of a default-network row describing a remote node. */
    public static ObjectId remoteId(String node, String type) {
        return remoteId(NetworkScope.DEFAULT, node, type);
    }

    /** The id of one network's row describing a remote node. */
    public static ObjectId remoteId(NetworkScope scope, String node, String type) {
        return scope.id(OwnerType.REMOTE_ZONE, node).with(IdKey.TYPE, type);
    }

    /** The id of a pod's logical switch port (its {@code k8s.ovn.org/name} is {@code <namespace>/<pod>}). */
    public static ObjectId podId(String namespace, String pod) {
        return ObjectId.of(POD_OWNER_TYPE, namespace + "/" + pod);
    }

    /** The management port's address in a node subnet: its second address (the first is the gateway). */
    public static InetAddress managementAddress(IpPrefix subnet) {
        return subnet.addressAt(2);
    }

    private static String hostPrefix(InetAddress ip) {
        return IpLiterals.format(ip) + (IpFamily.of(ip) == IpFamily.IPV4 ? "/32" : "/128");
    }

    static String encapKey(String chassis, String ip) {
        return chassis + "/" + ip;
    }

    private static String transitAddresses(List<IpPrefix> transit) {
        return MacAddresses.fromIp(transit.getFirst().address()) + " "
                + transit.stream().map(IpPrefix::toString).collect(Collectors.joining(" "));
    }

    static Map<String, String> subnetConfig(List<IpPrefix> subnets) {
        Map<String, String> m = new HashMap<>();
        for (IpPrefix s : subnets) {
            m.put(
                    s.family() == IpFamily.IPV4 ? "subnet" : "ipv6_prefix",
                    s.family() == IpFamily.IPV4 ? s.toString() : IpLiterals.format(s.address()));
        }
        // The zone controller allocates addresses itself; keep northd's IPAM away from ours
        // (the gateway and the management port).
        if (m.containsKey("subnet")) {
            m.put(
                    "exclude_ips",
                    IpLiterals.format(subnets.getFirst().addressAt(1)) + ".."
                            + IpLiterals.format(managementAddress(subnets.getFirst())));
        }
        return m;
    }
}
