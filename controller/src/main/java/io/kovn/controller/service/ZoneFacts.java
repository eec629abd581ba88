package io.kovn.controller.service;

import java.util.List;
import java.util.Objects;

/**
 * What the service model needs to know about its zone: the local node (its name decides which endpoints are local and
 * names the per-node load balancers) and the node's IPs (the vips of its NodePorts).
 *
 * @param node the zone's node
 * @param nodeIps the node's IPs (its {@code InternalIP} addresses), vips of NodePort services
 */
public record ZoneFacts(String node, List<String> nodeIps) {
    public ZoneFacts {
        Objects.requireNonNull(node, "node");
        nodeIps = List.copyOf(nodeIps);
    }
}
