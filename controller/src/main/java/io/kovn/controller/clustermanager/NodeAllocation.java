package io.kovn.controller.clustermanager;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the cluster manager gives one node.
 *
 * @param subnets the node subnets of the default network, one per family, IPv4 first
 * @param id the node id
 * @param transit the node's transit switch addresses (derived from the id)
 * @param gatewayRouterLrp its gateway router's join switch addresses (derived from the id, as the reference does in
 *     interconnect mode)
 * @param networkSubnets the node's subnets of each user-defined Layer3 network, by network name
 */
public record NodeAllocation(
        List<IpPrefix> subnets,
        NodeId id,
        NodeTransitSwitchPortIfaddr transit,
        NodeGatewayRouterLrpIfaddr gatewayRouterLrp,
        Map<String, List<IpPrefix>> networkSubnets) {
    public NodeAllocation {
        subnets = List.copyOf(subnets);
        Map<String, List<IpPrefix>> copy = new TreeMap<>();
        networkSubnets.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        networkSubnets = Collections.unmodifiableMap(copy);
    }

    /** The default network's allocation alone. */
    public NodeAllocation(
            List<IpPrefix> subnets,
            NodeId id,
            NodeTransitSwitchPortIfaddr transit,
            NodeGatewayRouterLrpIfaddr gatewayRouterLrp) {
        this(subnets, id, transit, gatewayRouterLrp, Map.of());
    }

    /** Every network's subnets of the node: {@code k8s.ovn.org/node-subnets}. */
    public NodeSubnets nodeSubnets() {
        Map<String, List<IpPrefix>> all = new HashMap<>(networkSubnets);
        all.put(OvnAnnotations.DEFAULT_NETWORK, subnets);
        return new NodeSubnets(all);
    }

    /** The four annotations, formatted as the reference writes them. */
    public Map<String, String> annotations() {
        return Map.of(
                OvnAnnotations.NODE_SUBNETS, nodeSubnets().format(),
                OvnAnnotations.NODE_ID, id.format(),
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, transit.format(),
                OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, gatewayRouterLrp.format());
    }
}
