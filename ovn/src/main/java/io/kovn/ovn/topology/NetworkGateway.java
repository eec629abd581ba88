package io.kovn.ovn.topology;

import static io.kovn.ovn.topology.TopologyRows.ref;
import static io.kovn.ovn.topology.TopologyRows.row;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalRouterPort;
import io.kovn.ovn.nb.LogicalRouterStaticRoute;
import io.kovn.ovn.nb.Nat;
import io.kovn.ovsdb.diff.Ref;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A user-defined network's way out of the cluster on one node (IPv4): the network's own gateway router
 * {@code GR_<prefix><node>}, peered with the network's router over the network's join subnet (the router's
 * {@code rtoj-} port holds its first address, the gateway router's the second), SNATs the network's subnets to the
 * network's masquerade address, and hands the packets to the node's gateway router {@code GR_<node>} over a /30 link of
 * its own, where they are SNATed once more, to the node's address, as the default network's are. Two SNATs, because
 * networks may share a subnet: each network's connections leave its own gateway router from its own address, so they
 * never meet in the node's gateway router's conntrack. The network's gateway router drops what is addressed to the
 * default network's pods, so nothing reaches them this way. Pure.
 */
public final class NetworkGateway {
    private NetworkGateway() {}

    /**
     * The rows, and what belongs to rows built elsewhere.
     *
     * @param rows the network's rows of this gateway (ports, routers, routes, NATs)
     * @param routerPort the network router's port toward its gateway router (for its {@code ports})
     * @param routerRoutes the network router's routes through it (for its {@code static_routes})
     * @param nodeRouterPort the key of the port that the node's {@code GR_<node>} must hold in its {@code ports}
     * @param nodeRouterNat the key of the NAT that {@code GR_<node>} must hold in its {@code nat}
     */
    public record Rows(
            List<DesiredRow> rows,
            Ref routerPort,
            List<Ref> routerRoutes,
            String nodeRouterPort,
            String nodeRouterNat) {}

    /**
     * The /30 between network {@code id}'s gateway router and the node's: {@code 169.254.(64 + id/64).(4 * (id %
     * 64))/30}, in the masquerade subnet {@code 169.254.0.0/17} that networks may not use, one per network.
     */
    public static IpPrefix link(int id) {
        return IpPrefix.parse("169.254." + (64 + id / 64) + "." + (4 * (id % 64)) + "/30");
    }

    /** The network's masquerade address on a node: its end of {@link #link}. */
    public static IpPrefix masqueradeAddress(int id) {
        return new IpPrefix(link(id).addressAt(2), 30);
    }

    /**
     * @param router the network's router here ({@code <prefix>ovn_cluster_router} or {@code <prefix>transit_router})
     * @param networkSubnets the network's IPv4 CIDRs
     * @param joinSubnet the network's IPv4 join subnet
     * @param chassis the node's chassis (a gateway router is bound to it)
     * @param nodeIp the node's IPv4 address
     * @param clusterSubnets the default network's IPv4 CIDRs: dropped here
     */
    public static Rows of(
            NetworkScope scope,
            int id,
            String node,
            String router,
            List<IpPrefix> networkSubnets,
            IpPrefix joinSubnet,
            String chassis,
            IpPrefix nodeIp,
            List<IpPrefix> clusterSubnets) {
        List<DesiredRow> rows = new ArrayList<>();
        String gr = TopologyNames.gatewayRouter(scope.prefix() + node);
        IpPrefix routerJoin = new IpPrefix(joinSubnet.addressAt(1), joinSubnet.length());
        IpPrefix grJoin = new IpPrefix(joinSubnet.addressAt(2), joinSubnet.length());
        IpPrefix linkNode = new IpPrefix(link(id).addressAt(1), 30);
        IpPrefix linkNetwork = masqueradeAddress(id);
        String routerPortName = TopologyNames.routerToJoin(router);
        String grJoinName = TopologyNames.routerToJoin(gr);
        String grLinkName = "rtodgr-" + gr;
        String nodeLinkName = "dgrtor-" + gr;

        ObjectId routerPort = ZoneTopology.nodeId(scope, node, "router-gr-port");
        rows.add(port(routerPort, routerPortName, routerJoin, grJoinName));
        ObjectId grJoinPort = ZoneTopology.nodeId(scope, node, "gr-join-port");
        rows.add(port(grJoinPort, grJoinName, grJoin, routerPortName));
        ObjectId grLinkPort = ZoneTopology.nodeId(scope, node, "gr-node-gr-port");
        rows.add(port(grLinkPort, grLinkName, linkNetwork, nodeLinkName));
        ObjectId nodeLinkPort = ZoneTopology.nodeId(scope, node, "node-gr-port");
        rows.add(port(nodeLinkPort, nodeLinkName, linkNode, grLinkName));

        List<Ref> grRoutes = new ArrayList<>();
        for (IpPrefix subnet : networkSubnets) {
            grRoutes.add(route(
                    rows,
                    ZoneTopology.nodeId(scope, node, "gr-network-route").with(IdKey.IP, subnet.toString()),
                    subnet.toString(),
                    IpLiterals.format(routerJoin.address())));
        }
        for (IpPrefix subnet : clusterSubnets) {
            grRoutes.add(route(
                    rows,
                    ZoneTopology.nodeId(scope, node, "gr-default-network-drop").with(IdKey.IP, subnet.toString()),
                    subnet.toString(),
                    "discard"));
        }
        grRoutes.add(route(
                rows,
                ZoneTopology.nodeId(scope, node, "gr-default-route"),
                "0.0.0.0/0",
                IpLiterals.format(linkNode.address())));
        List<Ref> grNats = new ArrayList<>();
        for (IpPrefix subnet : networkSubnets) {
            ObjectId natId = ZoneTopology.nodeId(scope, node, "gr-snat").with(IdKey.IP, subnet.toString());
            rows.add(row(
                    Nat.TABLE_NAME,
                    natId,
                    Map.of(),
                    Map.of(
                            Nat.TYPE,
                            "snat",
                            Nat.LOGICAL_IP,
                            subnet.toString(),
                            Nat.EXTERNAL_IP,
                            IpLiterals.format(linkNetwork.address()))));
            grNats.add(ref(Nat.TABLE_NAME, natId));
        }
        rows.add(row(
                LogicalRouter.TABLE_NAME,
                ZoneTopology.nodeId(scope, node, "gateway-router"),
                scope.externalIds(),
                Map.of(
                        LogicalRouter.NAME, gr,
                        LogicalRouter.OPTIONS, Map.of("chassis", chassis, "always_learn_from_arp_request", "false"),
                        LogicalRouter.PORTS,
                                Set.of(
                                        ref(LogicalRouterPort.TABLE_NAME, grJoinPort),
                                        ref(LogicalRouterPort.TABLE_NAME, grLinkPort)),
                        LogicalRouter.STATIC_ROUTES, Set.copyOf(grRoutes),
                        LogicalRouter.NAT, Set.copyOf(grNats))));

        ObjectId nodeNat = ZoneTopology.nodeId(scope, node, "node-gr-snat");
        rows.add(row(
                Nat.TABLE_NAME,
                nodeNat,
                Map.of(),
                Map.of(
                        Nat.TYPE,
                        "snat",
                        Nat.LOGICAL_IP,
                        IpLiterals.format(linkNetwork.address()),
                        Nat.EXTERNAL_IP,
                        IpLiterals.format(nodeIp.address()))));

        List<Ref> routerRoutes = new ArrayList<>();
        routerRoutes.add(route(
                rows,
                ZoneTopology.nodeId(scope, node, "router-default-route"),
                "0.0.0.0/0",
                IpLiterals.format(grJoin.address())));
        return new Rows(
                List.copyOf(rows),
                ref(LogicalRouterPort.TABLE_NAME, routerPort),
                routerRoutes,
                nodeLinkPort.primaryId(),
                nodeNat.primaryId());
    }

    /** Only networks with an IPv4 subnet and join subnet get a gateway (IPv6: not yet). */
    public static boolean applies(List<IpPrefix> networkSubnets, List<IpPrefix> joinSubnets) {
        return networkSubnets.stream().anyMatch(s -> s.family() == IpFamily.IPV4)
                && joinSubnets.stream().anyMatch(s -> s.family() == IpFamily.IPV4);
    }

    private static DesiredRow port(ObjectId id, String name, IpPrefix address, String peer) {
        return row(
                LogicalRouterPort.TABLE_NAME,
                id,
                Map.of(),
                Map.of(
                        LogicalRouterPort.NAME, name,
                        LogicalRouterPort.MAC, MacAddresses.fromIp(address.address()),
                        LogicalRouterPort.NETWORKS, Set.of(address.toString()),
                        LogicalRouterPort.PEER, Set.of(peer)));
    }

    private static Ref route(List<DesiredRow> rows, ObjectId id, String prefix, String nexthop) {
        rows.add(row(
                LogicalRouterStaticRoute.TABLE_NAME,
                id,
                Map.of(),
                Map.of(
                        LogicalRouterStaticRoute.IP_PREFIX, prefix,
                        LogicalRouterStaticRoute.NEXTHOP, nexthop)));
        return ref(LogicalRouterStaticRoute.TABLE_NAME, id);
    }
}
