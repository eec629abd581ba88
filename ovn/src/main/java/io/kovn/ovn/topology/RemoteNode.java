package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * Another node (another zone), as its annotations describe it.
 *
 * @param name node name
 * @param id node id
 * @param subnets node subnets, one per family
 * @param transit transit switch addresses
 * @param chassisId the system-id of its chassis
 * @param encapIps its tunnel endpoints
 * @param nodeIps the node's own addresses (encap IPs and InternalIPs), routed to its transit address
 * @param gatewayRouterIps its gateway router's join addresses, routed ({@code /32}, {@code /128}) to its transit
 *     address: the replies to what that GR sends with {@code lb_force_snat_ip} (empty when unknown)
 */
public record RemoteNode(
        String name,
        NodeId id,
        List<IpPrefix> subnets,
        NodeTransitSwitchPortIfaddr transit,
        NodeChassisId chassisId,
        NodeEncapIps encapIps,
        List<InetAddress> nodeIps,
        List<InetAddress> gatewayRouterIps) {
    /** A remote node whose gateway router is not known. */
    public RemoteNode(
            String name,
            NodeId id,
            List<IpPrefix> subnets,
            NodeTransitSwitchPortIfaddr transit,
            NodeChassisId chassisId,
            NodeEncapIps encapIps,
            List<InetAddress> nodeIps) {
        this(name, id, subnets, transit, chassisId, encapIps, nodeIps, List.of());
    }

    /** A remote node whose own addresses are its encap IPs. */
    public RemoteNode(
            String name,
            NodeId id,
            List<IpPrefix> subnets,
            NodeTransitSwitchPortIfaddr transit,
            NodeChassisId chassisId,
            NodeEncapIps encapIps) {
        this(name, id, subnets, transit, chassisId, encapIps, encapIps.ips());
    }

    public RemoteNode {
        nodeIps = List.copyOf(nodeIps);
        gatewayRouterIps = List.copyOf(gatewayRouterIps);
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(transit, "transit");
        Objects.requireNonNull(chassisId, "chassisId");
        Objects.requireNonNull(encapIps, "encapIps");
        subnets = List.copyOf(subnets);
    }
}
