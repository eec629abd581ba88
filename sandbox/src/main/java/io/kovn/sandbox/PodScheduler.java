package io.kovn.sandbox;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sandbox's scheduler: honours {@code spec.nodeName} and {@code nodeSelector}, otherwise
 * spreads pods to the feasible node with the fewest pods (ties broken by name, so placement is
 * deterministic for a given cluster state). Pure.
 */
public final class PodScheduler {
    private PodScheduler() {}

    /** A node as the scheduler sees it. */
    public record NodeView(String name, Map<String, String> labels, int podCount) {}

    /** The outcome of scheduling one pod. */
    public sealed interface Placement {
        record OnNode(String node) implements Placement {}
        record Unschedulable(String reason) implements Placement {}
    }

    public static Placement place(String requestedNode, Map<String, String> nodeSelector, List<NodeView> nodes) {
        Map<String, String> selector = nodeSelector == null ? Map.of() : nodeSelector;
        if (requestedNode != null && !requestedNode.isEmpty()) {
            return nodes.stream().anyMatch(n -> n.name().equals(requestedNode))
                    ? new Placement.OnNode(requestedNode)
                    : new Placement.Unschedulable("node " + requestedNode + " does not exist");
        }
        Optional<NodeView> best = nodes.stream()
                .filter(n -> n.labels().entrySet().containsAll(selector.entrySet()))
                .min(Comparator.comparingInt(NodeView::podCount).thenComparing(NodeView::name));
        return best.<Placement>map(n -> new Placement.OnNode(n.name()))
                .orElseGet(() -> new Placement.Unschedulable("no node matches nodeSelector " + selector));
    }
}
