package io.kovn.ovn.topology;

import static io.kovn.ovn.topology.TopologyRows.ref;
import static io.kovn.ovn.topology.TopologyRows.row;
import static io.kovn.ovn.topology.TopologyRows.strings;

import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalRouterPort;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovsdb.diff.Ref;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A user-defined Layer2 network's rows in one zone, as the reference's current Layer2 topology has them, for what
 * exists without pods and gateways yet: the network's one switch {@code <prefix>ovn_layer2_switch} spanning every node
 * (an interconnect switch: {@code interconn-ts} and the network's tunnel key, so every zone's copy is the same
 * datapath), the node's management port {@code k8s-<prefix><node>} on it (the subnet's second address, as on every
 * node), and the network's transit router {@code <prefix>transit_router} whose port
 * {@code trtos-<prefix>ovn_layer2_switch} holds the subnet's first address, the pods' gateway. Pure.
 */
public final class Layer2Topology {
    /** The layer2 switch's name after the prefix. */
    public static final String SWITCH = "ovn_layer2_switch";
    /** The transit router's name after the prefix. */
    public static final String TRANSIT_ROUTER = "transit_router";
    /**
     * The transit router's tunnel key: the reference allocates it from above every switch key; kovn derives it
     * (16711683 + 4096 + network id), so zones agree without an allocation.
     */
    public static final long TRANSIT_ROUTER_KEY_BASE = TopologyNames.TRANSIT_SWITCH_TUNNEL_KEY + 4096;

    private Layer2Topology() {}

    /**
     * @param subnets the network's CIDRs (one per family)
     * @param id the network's id (1..4095)
     */
    public static List<DesiredRow> desired(NetworkScope scope, String node, int id, List<IpPrefix> subnets) {
        return desired(scope, node, id, subnets, List.of());
    }

    /**
     * @param remotePods the remote ports of the network's pods on other nodes ({@link ZoneTopology#remotePodPort}),
     *     ports of the switch too
     */
    public static List<DesiredRow> desired(
            NetworkScope scope, String node, int id, List<IpPrefix> subnets, List<DesiredRow> remotePods) {
        List<DesiredRow> nb = new ArrayList<>(remotePods);
        String switchName = scope.prefix() + SWITCH;
        String routerName = scope.prefix() + TRANSIT_ROUTER;
        ObjectId mgmt = ZoneTopology.nodeId(scope, node, "mgmt-port");
        ObjectId stotr = scope.id(OwnerType.CLUSTER, "stotr-" + switchName);
        ObjectId trtos = scope.id(OwnerType.CLUSTER, "trtos-" + switchName);

        List<InetAddress> mgmtIps =
                subnets.stream().map(ZoneTopology::managementAddress).toList();
        nb.add(row(
                LogicalSwitchPort.TABLE_NAME,
                mgmt,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME, scope.managementPort(node),
                        LogicalSwitchPort.ADDRESSES,
                                Set.of(MacAddresses.fromIp(mgmtIps.getFirst()) + " "
                                        + mgmtIps.stream()
                                                .map(IpLiterals::format)
                                                .collect(Collectors.joining(" "))))));
        nb.add(row(
                LogicalSwitchPort.TABLE_NAME,
                stotr,
                Map.of(),
                Map.of(
                        LogicalSwitchPort.NAME,
                        "stotr-" + switchName,
                        LogicalSwitchPort.TYPE,
                        "router",
                        LogicalSwitchPort.ADDRESSES,
                        Set.of("router"),
                        LogicalSwitchPort.OPTIONS,
                        Map.of("router-port", "trtos-" + switchName))));
        Map<String, String> otherConfig = new HashMap<>(ZoneTopology.subnetConfig(subnets));
        otherConfig.put("interconn-ts", switchName);
        otherConfig.put("requested-tnl-key", Long.toString(scope.transitSwitchKey()));
        nb.add(row(
                LogicalSwitch.TABLE_NAME,
                scope.id(OwnerType.CLUSTER, switchName),
                scope.externalIds(),
                Map.of(
                        LogicalSwitch.NAME, switchName,
                        LogicalSwitch.OTHER_CONFIG, otherConfig,
                        LogicalSwitch.PORTS,
                                Stream.concat(
                                                Stream.of(
                                                        ref(LogicalSwitchPort.TABLE_NAME, mgmt),
                                                        ref(LogicalSwitchPort.TABLE_NAME, stotr)),
                                                remotePods.stream().map(r -> Ref.to(r.table(), r.key())))
                                        .collect(Collectors.toUnmodifiableSet()))));

        List<IpPrefix> gateways = subnets.stream()
                .map(s -> new IpPrefix(s.addressAt(1), s.length()))
                .toList();
        nb.add(row(
                LogicalRouterPort.TABLE_NAME,
                trtos,
                Map.of(),
                Map.of(
                        LogicalRouterPort.NAME, "trtos-" + switchName,
                        LogicalRouterPort.MAC,
                                MacAddresses.fromIp(gateways.getFirst().address()),
                        LogicalRouterPort.NETWORKS, strings(gateways))));
        Map<String, String> routerIds = new HashMap<>(scope.externalIds());
        routerIds.put("k8s-cluster-router", "yes");
        nb.add(row(
                LogicalRouter.TABLE_NAME,
                scope.id(OwnerType.CLUSTER, routerName),
                routerIds,
                Map.of(
                        LogicalRouter.NAME, routerName,
                        LogicalRouter.OPTIONS, Map.of("requested-tnl-key", Long.toString(TRANSIT_ROUTER_KEY_BASE + id)),
                        LogicalRouter.PORTS, Set.of(ref(LogicalRouterPort.TABLE_NAME, trtos)))));
        return List.copyOf(nb);
    }
}
