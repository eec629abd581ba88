package io.kovn.policy.select;

import java.util.List;
import java.util.Map;

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
 */
public record PodInfo(
        String namespace,
        String name,
        Map<String, String> labels,
        List<String> ips,
        boolean hostNetwork,
        List<ContainerPort> namedPorts,
        String nodeName) {

    public PodInfo {
        labels = Map.copyOf(labels);
        ips = List.copyOf(ips);
        namedPorts = List.copyOf(namedPorts);
    }

    /** The logical switch port name, {@code <namespace>_<name>}. */
    public String portName() {
        return namespace + "_" + name;
    }
}
