package io.kovn.policy.select;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The facts about a pod that policies read.
 *
 * @param namespace the pod's namespace
 * @param name the pod's name
 * @param labels the pod's labels
 * @param ips {@code status.podIPs} (or {@code status.podIP}), as text
 * @param hostNetwork host-network pods are never subjects or pod peers
 * @param namedPorts the containers' named ports
 * @param nodeName the node the pod is scheduled on, if any
 * @param portName the logical switch port of its primary network: {@code <namespace>_<name>} (derived when null), or
 *     its port on its primary user-defined network
 */
public record PodInfo(
        String namespace,
        String name,
        Map<String, String> labels,
        List<String> ips,
        boolean hostNetwork,
        List<ContainerPort> namedPorts,
        String nodeName,
        String portName) {

    public PodInfo {
        labels = Map.copyOf(labels);
        ips = List.copyOf(ips);
        namedPorts = List.copyOf(namedPorts);
        portName = portName == null ? namespace + "_" + name : portName;
    }

    /** A pod's facts; the port name is derived. */
    public PodInfo(
            String namespace,
            String name,
            Map<String, String> labels,
            List<String> ips,
            boolean hostNetwork,
            List<ContainerPort> namedPorts,
            String nodeName) {
        this(namespace, name, labels, ips, hostNetwork, namedPorts, nodeName, null);
    }

    /**
     * Whether {@code other} is this pod with at most its labels changed: then a selection's answer changes only if the
     * selector matched one label set and not the other.
     */
    public boolean sameBesidesLabels(PodInfo other) {
        return namespace.equals(other.namespace)
                && name.equals(other.name)
                && ips.equals(other.ips)
                && hostNetwork == other.hostNetwork
                && namedPorts.equals(other.namedPorts)
                && Objects.equals(nodeName, other.nodeName)
                && portName.equals(other.portName);
    }
}
