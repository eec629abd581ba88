package io.kovn.ovn.topology;

import static io.kovn.ovn.topology.TopologyRows.familyKey;
import static io.kovn.ovn.topology.TopologyRows.ref;
import static io.kovn.ovn.topology.TopologyRows.row;
import static io.kovn.ovn.topology.TopologyRows.strings;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalRouterPolicy;
import io.kovn.ovn.nb.LogicalRouterPort;
import io.kovn.ovn.nb.LogicalRouterStaticRoute;
import io.kovn.ovsdb.diff.Ref;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * A ClusterNetworkConnect's rows in one zone (specification 004): the connect router {@code connect_router_<cnc>}, one
 * port pair per connected network between it and the network's router here ({@code crtor-<cnc>_<network>[_<node>]} /
 * {@code rtocr-<network>[_<node>]_<cnc>}, on the link the cluster manager's block gives it: block base + 2 × node id
 * for a Layer3 network, the network's /31 for a Layer2 one; the even address on the connect router), a reroute policy
 * at priority {@value #POLICY_PRIORITY} on each network's router toward every network it is connected to (and a route
 * the same way: routing must find one before the policy stage), and a route per connected network's subnet on the
 * connect router.
 *
 * <p>The connect router is the zone's own, not a transit router spanning zones as the reference's (OVN 25.03 has no
 * transit routers): a packet crosses to its node on the destination network's own transit switch (Layer3) or
 * distributed switch (Layer2), after the connect router of the source node handed it to that network's router. So the
 * connect router holds local ports only and one route per network subnet, not one per node subnet, and trust zones hold
 * across connections as they hold inside each network. Pure.
 */
public final class ConnectTopology {
    /** The owner controller of a CNC's rows (the reference's). */
    public static final String CONTROLLER = "ovnkube-network-connect-controller";
    /** The reroute policies' priority (the reference's {@code NetworkConnectPolicyPriority}). */
    public static final int POLICY_PRIORITY = 9001;
    /** The reference's cap on a connect router port key's per-network stride. */
    private static final int MAX_NODES_PER_NETWORK = 5000;
    /** The largest logical port tunnel key. */
    private static final long MAX_PORT_KEY = 32767;

    private ConnectTopology() {}

    /** {@code connect_router_<cnc>}. */
    public static String routerName(String cnc) {
        return "connect_router_" + cnc;
    }

    /**
     * One connected network as this zone has it.
     *
     * @param network the network's name ({@code <ns>_<name>}, {@code cluster_udn_<name>})
     * @param id its id
     * @param layer2 whether it is a Layer2 network (one link, not one per node)
     * @param router its router here ({@code <prefix>ovn_cluster_router}, {@code <prefix>transit_router})
     * @param podPort the router's port toward its pods, the policies' {@code inport}
     * @param cidrs its subnets (the other networks' policies and the connect router's routes point at them)
     * @param link the /31 (/127) between the connect router and its router here, per family
     * @param nodeId the zone's node id (0 for a Layer2 network: its link is the same on every node)
     * @param portKey the tunnel key of the connect router's port ({@link #portKey})
     */
    public record Member(
            String network,
            int id,
            boolean layer2,
            String router,
            String podPort,
            List<IpPrefix> cidrs,
            List<IpPrefix> link,
            int nodeId,
            long portKey) {
        public Member {
            cidrs = List.copyOf(cidrs);
            link = List.copyOf(link);
        }

        String connectPort(String cnc, String node) {
            return "crtor-" + cnc + "_" + network + (layer2 ? "" : "_" + node);
        }

        String networkPort(String cnc, String node) {
            return "rtocr-" + network + (layer2 ? "" : "_" + node) + "_" + cnc;
        }
    }

    /**
     * The rows, and what belongs to rows built elsewhere (the networks' routers).
     *
     * @param rows the connect router, its ports and routes, the network routers' new ports and policies
     * @param routerPorts network router name to the keys of the ports it must hold in {@code ports}
     * @param routerPolicies network router name to the keys of the policies it must hold in {@code policies}
     * @param routerRoutes network router name to the keys of the routes it must hold in {@code static_routes}
     */
    public record Rows(
            List<DesiredRow> rows,
            Map<String, List<String>> routerPorts,
            Map<String, List<String>> routerPolicies,
            Map<String, List<String>> routerRoutes) {}

    /**
     * A network's link on a node: for a Layer3 network the /31 (/127) at {@code block} base + 2 × {@code nodeId}, for a
     * Layer2 network {@code block} itself.
     *
     * @return empty when the node id does not fit in the block
     */
    public static Optional<IpPrefix> link(IpPrefix block, boolean layer2, int nodeId) {
        int pair = block.family() == IpFamily.IPV4 ? 31 : 127;
        if (layer2) return Optional.of(block);
        BigInteger offset = BigInteger.valueOf(2L * nodeId);
        if (offset.add(BigInteger.ONE).compareTo(block.size()) >= 0) return Optional.empty();
        return Optional.of(new IpPrefix(block.addressAt(offset), pair));
    }

    /**
     * The reference's key of a connect router port: the network's block index in {@code cidr} × min(2^(host bits of a
     * block), 5000) + (node id, or for a Layer2 network the /31's index in its block) + 1.
     *
     * @param cidr the CNC's connect subnet of the link's family
     * @param networkPrefix its block length
     * @param link the network's link on this node
     */
    public static long portKey(IpPrefix cidr, int networkPrefix, IpPrefix link, boolean layer2, int nodeId) {
        int blockBits = cidr.family().bits() - networkPrefix;
        long maxNodes = blockBits >= 31 ? MAX_NODES_PER_NETWORK : Math.min(1L << blockBits, MAX_NODES_PER_NETWORK);
        BigInteger offset = cidr.indexOf(link.address());
        long networkIndex = offset.shiftRight(blockBits).longValueExact();
        long within = layer2
                ? offset.subtract(BigInteger.valueOf(networkIndex).shiftLeft(blockBits))
                        .shiftRight(1)
                        .longValueExact()
                : nodeId;
        return networkIndex * maxNodes + within + 1;
    }

    /**
     * @param cnc the ClusterNetworkConnect's name
     * @param node the zone's node
     * @param routerKey the connect router's tunnel key
     * @param members the connected networks, in id order
     * @param connects which pairs of members are connected (both selected, subnets apart)
     */
    public static Rows desired(
            String cnc, String node, long routerKey, List<Member> members, BiPredicate<Member, Member> connects) {
        List<DesiredRow> rows = new ArrayList<>();
        Map<String, List<String>> routerPorts = new TreeMap<>();
        Map<String, List<String>> routerPolicies = new TreeMap<>();
        Map<String, List<String>> routerRoutes = new TreeMap<>();
        String router = routerName(cnc);
        Set<Ref> ports = new HashSet<>();
        Set<Ref> routes = new HashSet<>();
        for (Member m : members) {
            if (members.stream().noneMatch(o -> o != m && connects.test(m, o))) continue; // connected to nothing here
            ObjectId crtor = portId(cnc, m, router);
            ObjectId rtocr = portId(cnc, m, m.router());
            List<IpPrefix> connectSide = m.link().stream()
                    .map(l -> new IpPrefix(l.addressAt(0), l.length()))
                    .toList();
            List<IpPrefix> networkSide = m.link().stream()
                    .map(l -> new IpPrefix(l.addressAt(1), l.length()))
                    .toList();
            rows.add(row(
                    LogicalRouterPort.TABLE_NAME,
                    crtor,
                    Map.of(),
                    Map.of(
                            LogicalRouterPort.NAME, m.connectPort(cnc, node),
                            LogicalRouterPort.MAC,
                                    MacAddresses.fromIp(connectSide.getFirst().address()),
                            LogicalRouterPort.NETWORKS, strings(connectSide),
                            LogicalRouterPort.PEER, Set.of(m.networkPort(cnc, node)),
                            // a router port's key has 15 bits: beyond, northd picks one (the router is the zone's own)
                            LogicalRouterPort.OPTIONS,
                                    m.portKey() <= MAX_PORT_KEY
                                            ? Map.of("requested-tnl-key", Long.toString(m.portKey()))
                                            : Map.of())));
            ports.add(ref(LogicalRouterPort.TABLE_NAME, crtor));
            rows.add(row(
                    LogicalRouterPort.TABLE_NAME,
                    rtocr,
                    Map.of(),
                    Map.of(
                            LogicalRouterPort.NAME, m.networkPort(cnc, node),
                            LogicalRouterPort.MAC,
                                    MacAddresses.fromIp(networkSide.getFirst().address()),
                            LogicalRouterPort.NETWORKS, strings(networkSide),
                            LogicalRouterPort.PEER, Set.of(m.connectPort(cnc, node)))));
            routerPorts.computeIfAbsent(m.router(), r -> new ArrayList<>()).add(rtocr.primaryId());
            for (IpPrefix cidr : m.cidrs()) {
                Optional<IpPrefix> hop = networkSide.stream()
                        .filter(a -> a.family() == cidr.family())
                        .findFirst();
                if (hop.isEmpty()) continue;
                ObjectId id = ObjectId.of(CONTROLLER, OwnerType.NETWORK_CONNECT, cnc)
                        .with("network-id", m.id())
                        .with("node-id", 0)
                        .with("ip-family", familyKey(cidr.family()));
                rows.add(row(
                        LogicalRouterStaticRoute.TABLE_NAME,
                        id,
                        Map.of(),
                        Map.of(
                                LogicalRouterStaticRoute.IP_PREFIX, cidr.toString(),
                                LogicalRouterStaticRoute.NEXTHOP,
                                        IpLiterals.format(hop.get().address()))));
                routes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, id));
            }
            for (Member other : members) {
                if (other == m || !connects.test(m, other)) continue;
                for (IpPrefix dst : other.cidrs()) {
                    Optional<IpPrefix> hop = connectSide.stream()
                            .filter(a -> a.family() == dst.family())
                            .findFirst();
                    if (hop.isEmpty()) continue;
                    String ip = dst.family() == IpFamily.IPV4 ? "ip4" : "ip6";
                    ObjectId id = ObjectId.of(CONTROLLER, OwnerType.NETWORK_CONNECT, cnc)
                            .with("source-network-id", m.id())
                            .with("destination-network-id", other.id())
                            .with("ip-family", familyKey(dst.family()))
                            .with("router-name", m.router());
                    rows.add(row(
                            LogicalRouterPolicy.TABLE_NAME,
                            id,
                            Map.of(),
                            Map.of(
                                    LogicalRouterPolicy.PRIORITY,
                                    (long) POLICY_PRIORITY,
                                    LogicalRouterPolicy.MATCH,
                                    "inport == \"" + m.podPort() + "\" && " + ip + ".dst == " + dst,
                                    LogicalRouterPolicy.ACTION,
                                    "reroute",
                                    LogicalRouterPolicy.NEXTHOPS,
                                    Set.of(IpLiterals.format(hop.get().address())))));
                    routerPolicies
                            .computeIfAbsent(m.router(), r -> new ArrayList<>())
                            .add(id.primaryId());
                    // the policy stage comes after routing, which drops what no route matches (a node
                    // without a gateway has no default route): the same way as a route too
                    ObjectId route = ObjectId.of(CONTROLLER, OwnerType.NETWORK_CONNECT, cnc)
                            .with("source-network-id", m.id())
                            .with("destination-network-id", other.id())
                            .with("ip-family", familyKey(dst.family()))
                            .with("via", router); // not the policy's id: attachments are keyed by id alone
                    rows.add(row(
                            LogicalRouterStaticRoute.TABLE_NAME,
                            route,
                            Map.of(),
                            Map.of(
                                    LogicalRouterStaticRoute.IP_PREFIX, dst.toString(),
                                    LogicalRouterStaticRoute.NEXTHOP,
                                            IpLiterals.format(hop.get().address()))));
                    routerRoutes
                            .computeIfAbsent(m.router(), r -> new ArrayList<>())
                            .add(route.primaryId());
                }
            }
        }
        if (ports.isEmpty())
            return new Rows(List.of(), Map.of(), Map.of(), Map.of()); // nothing to connect: no router either
        rows.add(row(
                LogicalRouter.TABLE_NAME,
                ObjectId.of(CONTROLLER, OwnerType.NETWORK_CONNECT, cnc).with("router-name", router),
                Map.of(),
                Map.of(
                        LogicalRouter.NAME, router,
                        LogicalRouter.OPTIONS, Map.of("requested-tnl-key", Long.toString(routerKey)),
                        LogicalRouter.PORTS, Set.copyOf(ports),
                        LogicalRouter.STATIC_ROUTES, Set.copyOf(routes))));
        return new Rows(List.copyOf(rows), routerPorts, routerPolicies, routerRoutes);
    }

    private static ObjectId portId(String cnc, Member m, String router) {
        return ObjectId.of(CONTROLLER, OwnerType.NETWORK_CONNECT, cnc)
                .with("network-id", m.id())
                .with("node-id", m.nodeId())
                .with("router-name", router);
    }
}
