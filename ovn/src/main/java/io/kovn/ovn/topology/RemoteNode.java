package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
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
 */
public record RemoteNode(String name, NodeId id, List<IpPrefix> subnets, NodeTransitSwitchPortIfaddr transit,
                         NodeChassisId chassisId, NodeEncapIps encapIps) {
    public RemoteNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(transit, "transit");
        Objects.requireNonNull(chassisId, "chassisId");
        Objects.requireNonNull(encapIps, "encapIps");
        subnets = List.copyOf(subnets);
    }
}
