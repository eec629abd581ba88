package io.kovn.controller.clustermanager;

import io.kovn.controller.ipam.IndexAllocator;
import io.kovn.ovn.annotations.NodeId;
import java.util.Optional;
import java.util.OptionalLong;

/** Node ids {@value NodeId#MIN}..{@value NodeId#MAX}, lowest free first. Not thread-safe. */
final class NodeIdAllocator {
    private final IndexAllocator pool;

    NodeIdAllocator(int max) {
        this.pool = new IndexAllocator(NodeId.MIN, Math.min(max, NodeId.MAX));
    }

    Optional<NodeId> allocate() {
        OptionalLong id = pool.allocate();
        return id.isPresent() ? Optional.of(new NodeId((int) id.getAsLong())) : Optional.empty();
    }

    boolean reserve(NodeId id) {
        return pool.reserve(id.value());
    }

    void release(NodeId id) {
        pool.release(id.value());
    }
}
