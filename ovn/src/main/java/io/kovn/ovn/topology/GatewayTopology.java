package io.kovn.ovn.topology;

import static io.kovn.ovn.topology.TopologyRows.familyKey;
import static io.kovn.ovn.topology.TopologyRows.ref;
import static io.kovn.ovn.topology.TopologyRows.row;
import static io.kovn.ovn.topology.TopologyRows.strings;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalRouterPort;
import io.kovn.ovn.nb.LogicalRouterStaticRoute;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.Nat;
import io.kovn.ovsdb.diff.Ref;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The node's shared gateway as the reference builds it (pure): the join switch {@code join} between
 * {@code ovn_cluster_router} ({@code rtoj-ovn_cluster_router}, 100.64.0.1/16) and the gateway router {@code GR_<node>}
 * ({@code rtoj-GR_<node>}, the node's join address); the GR bound to the node's chassis, with its external port
 * {@code rtoe-GR_<node>} (node IP, bridge MAC) on the external switch {@code ext_<node>}, whose localnet port
 * {@code <bridge>_<node>} reaches the node's bridge through {@code ovn-bridge-mappings=physnet:<bridge>}.
 *
 * <p>Routing: the GR SNATs the cluster subnets (and its own join address) to the node IP, routes the cluster subnets
 * back to 100.64.0.1 and everything else to the next hop. The cluster router sends what the node's pods send to no more
 * specific route ({@code policy=src-ip} route of the node subnet) to the GR, and routes the GR's join address to it.
 * Everything more specific (the node switch, remote node subnets, node IPs through the management port) keeps its
 * route: a {@code dst-ip} route wins over a {@code src-ip} route of the same length in OVN.
 */
final class GatewayTopology {
    /** Reference options of {@code GR_<node>} besides {@code chassis}. */
    static final Map<String, String> ROUTER_OPTIONS = Map.of(
            "always_learn_from_arp_request", "false",
            "dynamic_neigh_routers", "true",
            "lb_force_snat_ip", "router_ip",
            "snat-ct-zone", "0",
            "mac_binding_age_threshold", "300");

    private GatewayTopology() {}

    /** The gateway's rows, and what the cluster router gains (its port on the join switch, its routes). */
    record Rows(List<DesiredRow> nb, Ref clusterRouterPort, List<Ref> clusterRouterRoutes) {}

    static Rows of(LocalNode local, LocalGateway gw) {
        String node = local.name();
        String gr = TopologyNames.gatewayRouter(node);
        L3GatewayConfig cfg = gw.config();
        NodeGatewayRouterLrpIfaddr join = gw.join();
        List<DesiredRow> nb = new ArrayList<>();

        // The cluster router's side of the join switch, in the join network's families.
        List<IpPrefix> clusterJoin = join.all().stream()
                .map(p -> new IpPrefix(joinNetwork(p).addressAt(1), p.length()))
                .toList();
        ObjectId rtojCluster = ObjectId.of(OwnerType.CLUSTER, TopologyNames.routerToJoin(TopologyNames.CLUSTER_ROUTER));
        ObjectId jtorCluster = ObjectId.of(OwnerType.CLUSTER, TopologyNames.joinToRouter(TopologyNames.CLUSTER_ROUTER));
        nb.add(row(
                LogicalRouterPort.TABLE_NAME,
                rtojCluster,
                Map.of(),
                Map.of(
                        LogicalRouterPort.NAME, TopologyNames.routerToJoin(TopologyNames.CLUSTER_ROUTER),
                        LogicalRouterPort.MAC,
                                MacAddresses.fromIp(clusterJoin.getFirst().address()),
                        LogicalRouterPort.NETWORKS, strings(clusterJoin))));
        nb.add(routerTypePort(
                jtorCluster,
                TopologyNames.joinToRouter(TopologyNames.CLUSTER_ROUTER),
                TopologyNames.routerToJoin(TopologyNames.CLUSTER_ROUTER),
                "router",
                Map.of()));

        // GR_<node> on the join switch.
        ObjectId rtojGr = ZoneTopology.nodeId(node, "gr-join-port");
        ObjectId jtorGr = ZoneTopology.nodeId(node, "join-gr-port");
        String grJoinMac = MacAddresses.fromIp(join.all().getFirst().address());
        nb.add(row(
                LogicalRouterPort.TABLE_NAME,
                rtojGr,
                Map.of(),
                Map.of(
                        LogicalRouterPort.NAME, TopologyNames.routerToJoin(gr),
                        LogicalRouterPort.MAC, grJoinMac,
                        LogicalRouterPort.NETWORKS, strings(join.all()))));
        nb.add(routerTypePort(
                jtorGr, TopologyNames.joinToRouter(gr), TopologyNames.routerToJoin(gr), grJoinMac, Map.of()));
        nb.add(row(
                LogicalSwitch.TABLE_NAME,
                ObjectId.of(OwnerType.CLUSTER, TopologyNames.JOIN_SWITCH),
                Map.of(),
                Map.of(
                        LogicalSwitch.NAME,
                        TopologyNames.JOIN_SWITCH,
                        LogicalSwitch.PORTS,
                        Set.of(
                                ref(LogicalSwitchPort.TABLE_NAME, jtorCluster),
                                ref(LogicalSwitchPort.TABLE_NAME, jtorGr)))));

        // The external side: rtoe-GR_<node> shares the bridge's MAC and the node IP with the host.
        ObjectId rtoe = ZoneTopology.nodeId(node, "gr-external-port");
        ObjectId etor = ZoneTopology.nodeId(node, "external-gr-port");
        ObjectId localnet = ZoneTopology.nodeId(node, "external-localnet-port");
        String rtoeName = TopologyNames.routerToExternal(gr);
        nb.add(row(
                LogicalRouterPort.TABLE_NAME,
                rtoe,
                Map.of("gateway-physical-ip", "yes"),
                Map.of(
                        LogicalRouterPort.NAME, rtoeName,
                        LogicalRouterPort.MAC, cfg.macAddress(),
                        LogicalRouterPort.NETWORKS, strings(cfg.ipAddresses()))));
        nb.add(routerTypePort(
                etor,
                TopologyNames.externalToRouter(gr),
                rtoeName,
                cfg.macAddress(),
                Map.of("nat-addresses", "router", "exclude-lb-vips-from-garp", "true")));
        nb.add(row(
                LogicalSwitchPort.TABLE_NAME,
                localnet,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME, cfg.interfaceId(),
                        LogicalSwitchPort.TYPE, "localnet",
                        LogicalSwitchPort.ADDRESSES, Set.of("unknown"),
                        LogicalSwitchPort.OPTIONS, Map.of("network_name", TopologyNames.PHYSNET))));
        nb.add(row(
                LogicalSwitch.TABLE_NAME,
                ZoneTopology.nodeId(node, "external-switch"),
                Map.of(),
                Map.of(
                        LogicalSwitch.NAME, TopologyNames.externalSwitch(node),
                        LogicalSwitch.PORTS,
                                Set.of(
                                        ref(LogicalSwitchPort.TABLE_NAME, etor),
                                        ref(LogicalSwitchPort.TABLE_NAME, localnet)))));

        // GR routes: cluster subnets back to the cluster router, the default route to the next hop.
        List<Ref> grRoutes = new ArrayList<>();
        for (IpPrefix subnet : gw.clusterSubnets()) {
            clusterJoin.stream()
                    .filter(j -> j.family() == subnet.family())
                    .findFirst()
                    .ifPresent(j -> {
                        ObjectId id =
                                ZoneTopology.nodeId(node, "gr-cluster-route").with(IdKey.IP, subnet.toString());
                        grRoutes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, id));
                        nb.add(row(
                                LogicalRouterStaticRoute.TABLE_NAME,
                                id,
                                Map.of(),
                                Map.of(
                                        LogicalRouterStaticRoute.IP_PREFIX, subnet.toString(),
                                        LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(j.address()))));
                    });
        }
        for (InetAddress hop : cfg.nextHops()) {
            if (cfg.ipOf(IpFamily.of(hop)).isEmpty()) {
                continue;
            }
            ObjectId id =
                    ZoneTopology.nodeId(node, "gr-default-route").with(IdKey.IP_FAMILY, familyKey(IpFamily.of(hop)));
            grRoutes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, id));
            nb.add(row(
                    LogicalRouterStaticRoute.TABLE_NAME,
                    id,
                    Map.of(),
                    Map.of(
                            LogicalRouterStaticRoute.IP_PREFIX,
                                    IpFamily.of(hop) == IpFamily.IPV4 ? "0.0.0.0/0" : "::/0",
                            LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(hop),
                            LogicalRouterStaticRoute.OUTPUT_PORT, Set.of(rtoeName))));
        }

        // SNAT to the node IP: the cluster subnets (the reference's default, disable-snat-multiple-gws
        // off) and the GR's own join address (the reference's workaround for ICMP needs-frag replies).
        List<Ref> nats = new ArrayList<>();
        for (IpPrefix subnet : gw.clusterSubnets()) {
            cfg.ipOf(subnet.family()).ifPresent(ext -> nats.add(snat(nb, node, "gr-snat", subnet.toString(), ext)));
        }
        for (IpPrefix j : join.all()) {
            cfg.ipOf(j.family())
                    .ifPresent(ext -> nats.add(snat(nb, node, "gr-join-snat", IpLiterals.format(j.address()), ext)));
        }

        Map<String, String> grIds = new HashMap<>();
        grIds.put("physical_ip", IpLiterals.format(cfg.ipAddresses().getFirst().address()));
        grIds.put(
                "physical_ips",
                cfg.ipAddresses().stream()
                        .map(p -> IpLiterals.format(p.address()))
                        .collect(Collectors.joining(",")));
        Map<String, String> options = new HashMap<>(ROUTER_OPTIONS);
        options.put("chassis", gw.chassisId());
        nb.add(row(
                LogicalRouter.TABLE_NAME,
                ZoneTopology.nodeId(node, "gateway-router"),
                grIds,
                Map.of(
                        LogicalRouter.NAME, gr,
                        LogicalRouter.OPTIONS, Map.copyOf(options),
                        LogicalRouter.PORTS,
                                Set.of(
                                        ref(LogicalRouterPort.TABLE_NAME, rtojGr),
                                        ref(LogicalRouterPort.TABLE_NAME, rtoe)),
                        LogicalRouter.STATIC_ROUTES, Set.copyOf(grRoutes),
                        LogicalRouter.NAT, Set.copyOf(nats))));

        // The cluster router: the node subnet's egress to the GR, and the GR's join address to it.
        List<Ref> clusterRoutes = new ArrayList<>();
        for (IpPrefix subnet : local.subnets()) {
            join.all().stream()
                    .filter(j -> j.family() == subnet.family())
                    .findFirst()
                    .ifPresent(j -> {
                        ObjectId src = ZoneTopology.nodeId(node, "gr-src-route")
                                .with(IdKey.IP_FAMILY, familyKey(subnet.family()));
                        clusterRoutes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, src));
                        nb.add(row(
                                LogicalRouterStaticRoute.TABLE_NAME,
                                src,
                                Map.of(),
                                Map.of(
                                        LogicalRouterStaticRoute.IP_PREFIX, subnet.toString(),
                                        LogicalRouterStaticRoute.POLICY, Set.of("src-ip"),
                                        LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(j.address()))));
                    });
        }
        for (IpPrefix j : join.all()) {
            ObjectId id = ZoneTopology.nodeId(node, "gr-join-route").with(IdKey.IP_FAMILY, familyKey(j.family()));
            clusterRoutes.add(ref(LogicalRouterStaticRoute.TABLE_NAME, id));
            nb.add(row(
                    LogicalRouterStaticRoute.TABLE_NAME,
                    id,
                    Map.of(),
                    Map.of(
                            LogicalRouterStaticRoute.IP_PREFIX, IpLiterals.format(j.address()),
                            LogicalRouterStaticRoute.NEXTHOP, IpLiterals.format(j.address()))));
        }
        return new Rows(nb, ref(LogicalRouterPort.TABLE_NAME, rtojCluster), clusterRoutes);
    }

    /** The join network of an address (the reference's: 100.64.0.0/16, fd98::/64 by default). */
    private static IpPrefix joinNetwork(IpPrefix address) {
        return address.network();
    }

    private static Ref snat(List<DesiredRow> nb, String node, String type, String logicalIp, IpPrefix external) {
        ObjectId id = ZoneTopology.nodeId(node, type).with(IdKey.IP, logicalIp);
        nb.add(row(
                Nat.TABLE_NAME,
                id,
                Map.of(),
                Map.of(
                        Nat.TYPE,
                        "snat",
                        Nat.LOGICAL_IP,
                        logicalIp,
                        Nat.EXTERNAL_IP,
                        IpLiterals.format(external.address()))));
        return ref(Nat.TABLE_NAME, id);
    }

    private static DesiredRow routerTypePort(
            ObjectId id, String name, String routerPort, String addresses, Map<String, String> extraOptions) {
        Map<String, String> options = new HashMap<>(extraOptions);
        options.put("router-port", routerPort);
        return row(
                LogicalSwitchPort.TABLE_NAME,
                id,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME,
                        name,
                        LogicalSwitchPort.TYPE,
                        "router",
                        LogicalSwitchPort.ADDRESSES,
                        Set.of(addresses),
                        LogicalSwitchPort.OPTIONS,
                        Map.copyOf(options)));
    }
}
