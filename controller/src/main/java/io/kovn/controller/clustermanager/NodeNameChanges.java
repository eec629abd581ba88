package io.kovn.controller.clustermanager;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.k8s.runtime.Mapper;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A {@link Mapper} that queues every policy only when the set of node names in the cache changed (a node added or
 * deleted): heartbeats, labels and annotations cost nothing. It compares the cache NOW with the set it last saw, so it
 * is level-driven: a missed event is made up by the next.
 *
 * @param <K> the key type of the controller it feeds
 */
final class NodeNameChanges<K> implements Mapper<Node, K> {
    private final Indexer<Node> nodes;
    private final Supplier<Collection<K>> everyKey;
    private Set<String> seen;

    /**
     * @param nodes the node cache
     * @param everyKey the keys to queue when the set changes
     */
    NodeNameChanges(Indexer<Node> nodes, Supplier<Collection<K>> everyKey) {
        this.nodes = nodes;
        this.everyKey = everyKey;
        // the nodes already cached are replayed as adds when the controller registers: no change
        this.seen = names();
    }

    @Override
    public synchronized Collection<K> keys(Node node) {
        Set<String> now = names();
        if (Objects.equals(seen, now)) {
            return List.of();
        }
        seen = now;
        return everyKey.get();
    }

    private Set<String> names() {
        return Set.copyOf(nodes.listKeys());
    }
}
