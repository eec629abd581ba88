package io.kovn.controller.clustermanager;

import io.kovn.ovn.annotations.IpPrefix;
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
 */
public record NodeAllocation(List<IpPrefix> subnets, NodeId id, NodeTransitSwitchPortIfaddr transit) {
    public NodeAllocation {
        subnets = List.copyOf(subnets);
    }

    /** The three annotations, formatted as the reference writes them. */
    public Map<String, String> annotations() {
        return Map.of(
                OvnAnnotations.NODE_SUBNETS, NodeSubnets.ofDefault(subnets).format(),
                OvnAnnotations.NODE_ID, id.format(),
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, transit.format());
    }
}
