package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.clustermanager.NodeAllocator.Decision;
import io.kovn.controller.network.ClusterNetwork;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random add/delete/restart sequences: no value held twice, nothing leaked, nothing moved. */
class NodeAllocatorPropertiesTest {
    private static final ClusterManagerConfig CONFIG = ClusterManagerConfig.of(
                    List.of(ClusterNetwork.parse("10.0.0.0/20/24"), ClusterNetwork.parse("fd00::/60/64")))
            .withMaxNodeId(14);

    /** op: 0..11 add node-op, 12..19 delete node-(op-12), 20 restart. */
    @Provide
    Arbitrary<List<Integer>> ops() {
        return Arbitraries.integers().between(0, 20).list().ofMinSize(1).ofMaxSize(80);
    }

    @Property(tries = 300)
    void noDuplicatesNoLeaksRestartSafe(@ForAll("ops") List<Integer> ops) {
        NodeAllocator allocator = new NodeAllocator(CONFIG);
        Map<String, Map<String, String>> cluster = new HashMap<>(); // node -> its annotations (the API server)
        for (int op : ops) {
            if (op < 12) {
                String node = "node-" + op;
                Map<String, String> current = cluster.getOrDefault(node, Map.of());
                Decision d = allocator.ensure(node, current);
                switch (d) {
                    case Decision.Patch p -> {
                        if (!current.isEmpty()) {
                            assertThat(p.allocation().annotations())
                                    .as("allocation moved")
                                    .isEqualTo(current);
                        }
                        cluster.put(node, p.allocation().annotations());
                    }
                    case Decision.UpToDate u ->
                        assertThat(current).isEqualTo(u.allocation().annotations());
                    case Decision.Exhausted e -> assertThat(cluster).doesNotContainKey(node);
                }
            } else if (op < 20) {
                String node = "node-" + (op - 12);
                cluster.remove(node);
                allocator.release(node);
            } else {
                allocator = new NodeAllocator(CONFIG);
                cluster.forEach(allocator::restore);
            }
            Set<String> seen = new HashSet<>();
            for (Map<String, String> ann : cluster.values()) {
                for (String v : ann.values()) {
                    assertThat(seen.add(v)).as("duplicate value %s", v).isTrue();
                }
            }
            // No leak: everything the allocator still holds for a node that completed belongs to a live node.
            NodeAllocator current = allocator;
            assertThat(cluster.keySet())
                    .containsAll(current.nodes().stream()
                            .filter(n -> current.allocationOf(n).isPresent())
                            .toList());
        }
        // Capacity is reachable again after deleting everything: nothing leaked.
        for (String node : List.copyOf(cluster.keySet())) {
            allocator.release(node);
        }
        for (String node : allocator.nodes()) {
            allocator.release(node);
        }
        for (int i = 0; i < 13; i++) {
            assertThat(allocator.ensure("fresh-" + i, Map.of())).isInstanceOf(Decision.Patch.class);
        }
    }
}
