package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import java.util.List;
import java.util.Objects;

/**
 * What the zone needs to build its node's gateway ({@code GR_<node>} and its switches): the node's annotations, read by
 * the zone controller.
 *
 * @param join the gateway router's join switch addresses ({@code k8s.ovn.org/node-gateway-router-lrp-ifaddr})
 * @param config the node agent's {@code k8s.ovn.org/l3-gateway-config} (shared mode)
 * @param chassisId the node's chassis ({@code k8s.ovn.org/node-chassis-id}): the GR is bound to it
 * @param clusterSubnets the cluster's pod networks: SNATed to the node IP, routed back to the cluster router
 */
public record LocalGateway(
        NodeGatewayRouterLrpIfaddr join, L3GatewayConfig config, String chassisId, List<IpPrefix> clusterSubnets) {
    public LocalGateway {
        Objects.requireNonNull(join, "join");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(chassisId, "chassisId");
        clusterSubnets = List.copyOf(clusterSubnets);
        if (!config.mode().equals(L3GatewayConfig.MODE_SHARED)) {
            throw new IllegalArgumentException("only the shared gateway mode is built, not " + config.mode());
        }
    }
}
