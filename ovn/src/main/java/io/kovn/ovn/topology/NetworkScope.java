package io.kovn.ovn.topology;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import java.util.Map;
import java.util.Optional;

/**
 * What makes one network's topology rows its own: the names (the reference's per-network prefix), the owner controller
 * of their ids (so each network's rows are diffed on their own), the transit switch's tunnel key and the
 * {@code k8s.ovn.org/network|role|topology} external_ids. The default network is {@link #DEFAULT}: no prefix, the names
 * in {@link TopologyNames}; a user-defined network is {@link #userDefined}. One topology function serves both.
 *
 * @param network the network's name ({@code default}, {@code ns1_udn1}, {@code cluster_udn_blue})
 * @param prefix the prefix of its OVN object names, empty for the default network
 * @param controller the owner controller of its rows
 * @param transitSwitchKey its transit switch's tunnel key
 * @param externalIds what its switches and routers carry besides their ids (none for the default network)
 */
public record NetworkScope(
        String network, String prefix, String controller, long transitSwitchKey, Map<String, String> externalIds) {
    /** The default network (network 0). */
    public static final NetworkScope DEFAULT = new NetworkScope(
            "default", "", ObjectId.DEFAULT_CONTROLLER, TopologyNames.TRANSIT_SWITCH_TUNNEL_KEY, Map.of());

    /** What a user-defined network's owner controller is named: {@code <network>-network-controller}. */
    private static final String CONTROLLER_SUFFIX = "-network-controller";

    public NetworkScope {
        externalIds = Map.copyOf(externalIds);
    }

    /**
     * The user-defined network an owner controller (a row's {@code k8s.ovn.org/owner-controller}) is of, if it is
     * one's.
     */
    public static Optional<String> networkOfController(String controller) {
        return controller.endsWith(CONTROLLER_SUFFIX) && !controller.equals(DEFAULT.controller())
                ? Optional.of(controller.substring(0, controller.length() - CONTROLLER_SUFFIX.length()))
                : Optional.empty();
    }

    /**
     * A primary user-defined network of id {@code id} (1..4095), named as the reference names it: prefix = the name
     * with {@code -} and {@code /} made {@code .}, then {@code _}; rows owned by {@code <network>-network-controller};
     * transit switch key 16711683 + id.
     *
     * @param topology {@code layer3} or {@code layer2}
     */
    public static NetworkScope userDefined(String network, int id, String topology) {
        return new NetworkScope(
                network,
                network.replace('-', '.').replace('/', '.') + "_",
                network + CONTROLLER_SUFFIX,
                TopologyNames.TRANSIT_SWITCH_TUNNEL_KEY + id,
                Map.of(
                        "k8s.ovn.org/network",
                        network,
                        "k8s.ovn.org/role",
                        "primary",
                        "k8s.ovn.org/topology",
                        topology));
    }

    public boolean isDefault() {
        return prefix.isEmpty();
    }

    /** A row id owned by this network's controller. */
    public ObjectId id(OwnerType type, String name) {
        return ObjectId.of(controller, type, name);
    }

    /** The node switch: {@code <prefix><node>}. */
    public String nodeSwitch(String node) {
        return prefix + node;
    }

    /** {@code <prefix>ovn_cluster_router}. */
    public String clusterRouter() {
        return prefix + TopologyNames.CLUSTER_ROUTER;
    }

    /** {@code <prefix>transit_switch}. */
    public String transitSwitch() {
        return prefix + TopologyNames.TRANSIT_SWITCH;
    }

    /** {@code rtos-<prefix><node>}. */
    public String routerToSwitch(String node) {
        return TopologyNames.routerToSwitch(nodeSwitch(node));
    }

    /** {@code stor-<prefix><node>}. */
    public String switchToRouter(String node) {
        return TopologyNames.switchToRouter(nodeSwitch(node));
    }

    /** {@code <prefix>rtots-<node>}: the prefix goes in front, as in the reference. */
    public String routerToTransitSwitch(String node) {
        return prefix + TopologyNames.routerToTransitSwitch(node);
    }

    /** {@code <prefix>tstor-<node>}. */
    public String transitSwitchToRouter(String node) {
        return prefix + TopologyNames.transitSwitchToRouter(node);
    }

    /** {@code k8s-<prefix><node>}. */
    public String managementPort(String node) {
        return TopologyNames.managementPort(nodeSwitch(node));
    }
}
