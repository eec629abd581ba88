package io.kovn.controller.zone;

import io.kovn.controller.network.Network;
import io.kovn.ovn.topology.PodPort;
import java.util.Optional;

/**
 * The switch ports one pod is to have: on the default network always (its primary network, or the infrastructure
 * interface of a pod with a primary user-defined network), and on its primary user-defined network when it has one.
 *
 * @param defaultPort the port on the node switch
 * @param networkPort the port on its primary user-defined network's switch
 */
record PodPorts(PodPort defaultPort, Optional<NetworkPort> networkPort) {
    /**
     * @param network the pod's primary network
     * @param attachment its key in {@code pod-networks} ({@code <namespace>/<name>}), which names the port
     * @param port the pod's addresses on it
     */
    record NetworkPort(Network network, String attachment, PodPort port) {}
}
