package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The zone's own node, as its cluster-manager annotations describe it.
 *
 * @param name node name (= zone name)
 * @param id node id
 * @param subnets node subnets, one per family, IPv4 first
 * @param transit the node's transit switch addresses
 * @param nodeIps the node's own addresses (encap IPs and InternalIPs): pods reach them through the management port; may
 *     be empty (then only the management port itself is built)
 * @param gateway the node's gateway, when its annotations are complete (else no gateway is built)
 */
public record LocalNode(
        String name,
        NodeId id,
        List<IpPrefix> subnets,
        NodeTransitSwitchPortIfaddr transit,
        List<InetAddress> nodeIps,
        Optional<LocalGateway> gateway) {
    /** A local node without a gateway. */
    public LocalNode(
            String name,
            NodeId id,
            List<IpPrefix> subnets,
            NodeTransitSwitchPortIfaddr transit,
            List<InetAddress> nodeIps) {
        this(name, id, subnets, transit, nodeIps, Optional.empty());
    }

    /** The same node with {@code gw} as its gateway. */
    public LocalNode withGateway(LocalGateway gw) {
        return new LocalNode(name, id, subnets, transit, nodeIps, Optional.of(gw));
    }

    /** A local node whose own addresses are not known yet. */
    public LocalNode(String name, NodeId id, List<IpPrefix> subnets, NodeTransitSwitchPortIfaddr transit) {
        this(name, id, subnets, transit, List.of());
    }

    public LocalNode {
        nodeIps = List.copyOf(nodeIps);
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(transit, "transit");
        Objects.requireNonNull(gateway, "gateway");
        subnets = List.copyOf(subnets);
        if (subnets.isEmpty()) {
            throw new IllegalArgumentException("node " + name + " has no subnet");
        }
    }
}
