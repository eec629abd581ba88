package io.kovn.policy.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What changed between two snapshots of the cluster, object by object ({@code null} = absent on that side). Input of
 * {@link ClusterIndex#apply}.
 */
public final class ClusterChanges {
    /** A pod added, removed, changed, or whose switch port appeared or went (then before = after). */
    public record PodChange(String namespace, String name, PodInfo before, PodInfo after) {}

    /** A namespace added, removed or relabelled (labels as the index keeps them). */
    public record NamespaceChange(String name, Map<String, String> before, Map<String, String> after) {}

    /** A node added, removed or changed. */
    public record NodeChange(String name, NodeInfo before, NodeInfo after) {}

    private final List<PodChange> pods = new ArrayList<>();
    private final List<NamespaceChange> namespaces = new ArrayList<>();
    private final List<NodeChange> nodes = new ArrayList<>();

    public void pod(String namespace, String name, PodInfo before, PodInfo after) {
        pods.add(new PodChange(namespace, name, before, after));
    }

    public void namespace(String name, Map<String, String> before, Map<String, String> after) {
        namespaces.add(new NamespaceChange(name, before, after));
    }

    public void node(String name, NodeInfo before, NodeInfo after) {
        nodes.add(new NodeChange(name, before, after));
    }

    public List<PodChange> pods() {
        return pods;
    }

    public List<NamespaceChange> namespaces() {
        return namespaces;
    }

    public List<NodeChange> nodes() {
        return nodes;
    }

    /** How many objects changed. */
    public int size() {
        return pods.size() + namespaces.size() + nodes.size();
    }
}
