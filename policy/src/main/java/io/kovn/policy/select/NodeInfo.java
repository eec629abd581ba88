package io.kovn.policy.select;

import java.util.List;
import java.util.Map;

/**
 * The facts about a node that {@code nodes} peers read.
 *
 * @param name the node name
 * @param labels the node's labels
 * @param internalIps {@code status.addresses} of type InternalIP
 */
public record NodeInfo(String name, Map<String, String> labels, List<String> internalIps) {
    public NodeInfo {
        labels = Map.copyOf(labels);
        internalIps = List.copyOf(internalIps);
    }
}
