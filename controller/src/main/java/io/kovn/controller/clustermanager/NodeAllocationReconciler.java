package io.kovn.controller.clustermanager;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.zone.JsonPatches;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster manager's reconcile of one node: make its {@code node-subnets}, {@code node-id} and
 * {@code node-transit-switch-port-ifaddr} annotations state its allocation (merge patch), or free the allocation of a
 * deleted node. One reconcile per node key at a time; the allocator is shared and synchronized, so concurrent node
 * creations never get the same value.
 */
public final class NodeAllocationReconciler implements Reconciler<ObjectKey> {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAllocationReconciler.class);
    /** How long an exhausted node waits before the next try (a deleted node also re-queues it). */
    static final Duration EXHAUSTED_RETRY = Duration.ofSeconds(30);

    private final KubernetesClient client;
    private final Indexer<Node> nodes;
    private final NodeAllocator allocator;
    private final EventSink events;
    private volatile Runnable released = () -> {};

    public NodeAllocationReconciler(
            KubernetesClient client, Indexer<Node> nodes, NodeAllocator allocator, EventSink events) {
        this.client = client;
        this.nodes = nodes;
        this.allocator = allocator;
        this.events = events;
    }

    /** Called after a deleted node's values were freed (e.g. to retry nodes that found a range full). */
    public void onRelease(Runnable callback) {
        this.released = callback;
    }

    /** Adopts every existing node's annotations, oldest node first; call once before the first reconcile. */
    public void restore() {
        nodes.list().stream()
                .sorted(Comparator.comparing(
                                (Node n) -> String.valueOf(n.getMetadata().getCreationTimestamp()))
                        .thenComparing(n -> n.getMetadata().getName()))
                .forEach(n -> allocator.restore(n.getMetadata().getName(), annotations(n)));
    }

    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        Node node = nodes.getByKey(key.name());
        if (node == null) {
            if (allocator.nodes().contains(key.name())) {
                allocator.release(key.name());
                released.run();
            }
            return ReconcileResult.done();
        }
        return switch (allocator.ensure(key.name(), annotations(node))) {
            case NodeAllocator.Decision.UpToDate u -> ReconcileResult.done();
            case NodeAllocator.Decision.Patch p -> {
                // With the resourceVersion the allocation was decided on: a leader deposed meanwhile, or a cache
                // behind another writer, gets 409 Conflict and decides again on the node as it is now.
                String patch = JsonPatches.json(Map.of(
                        "metadata",
                        Map.of(
                                "resourceVersion",
                                node.getMetadata().getResourceVersion(),
                                "annotations",
                                p.allocation().annotations())));
                client.nodes().withName(key.name()).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
                LOG.info("node {}: allocated {}", key.name(), p.allocation());
                yield ReconcileResult.done();
            }
            case NodeAllocator.Decision.Exhausted e -> {
                events.warning(node, "NodeAllocationFailed", e.message());
                yield ReconcileResult.requeue(EXHAUSTED_RETRY);
            }
        };
    }

    private static Map<String, String> annotations(Node n) {
        Map<String, String> a = n.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
