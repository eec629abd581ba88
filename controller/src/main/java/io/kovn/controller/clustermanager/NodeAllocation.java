package io.kovn.controller.clustermanager;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.List;
import java.util.Map;

/**
 * Everything the cluster manager gives one node.
 *
 * @param subnets the node subnets of the default network, one per family, IPv4 first
 * @param id the node id
 * @param transit the node's transit switch addresses (derived from the id)
 * @param gatewayRouterLrp its gateway router's join switch addresses (derived from the id, as the
 *     reference does in interconnect mode)
 */
public record NodeAllocation(List<IpPrefix> subnets, NodeId id, NodeTransitSwitchPortIfaddr transit,
                             NodeGatewayRouterLrpIfaddr gatewayRouterLrp) {
    public NodeAllocation {
        subnets = List.copyOf(subnets);
    }

    /** The four annotations, formatted as the reference writes them. */
    public Map<String, String> annotations() {
        return Map.of(
                OvnAnnotations.NODE_SUBNETS, NodeSubnets.ofDefault(subnets).format(),
                OvnAnnotations.NODE_ID, id.format(),
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, transit.format(),
                OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, gatewayRouterLrp.format());
    }
}
