package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.sandbox.PodScheduler.NodeView;
import io.kovn.sandbox.PodScheduler.Placement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodSchedulerTest {
    private final List<NodeView> nodes = List.of(
            new NodeView("node-1", Map.of("zone", "a"), 2),
            new NodeView("node-2", Map.of("zone", "b"), 1),
            new NodeView("node-3", Map.of("zone", "b"), 1));

    @Test
    void honoursNodeName() {
        assertThat(PodScheduler.place("node-1", Map.of(), nodes)).isEqualTo(new Placement.OnNode("node-1"));
    }

    @Test
    void unknownNodeNameIsUnschedulable() {
        assertThat(PodScheduler.place("node-9", Map.of(), nodes)).isInstanceOf(Placement.Unschedulable.class);
    }

    @Test
    void spreadsToLeastLoadedThenByName() {
        assertThat(PodScheduler.place(null, Map.of(), nodes)).isEqualTo(new Placement.OnNode("node-2"));
    }

    @Test
    void honoursNodeSelector() {
        assertThat(PodScheduler.place(null, Map.of("zone", "a"), nodes)).isEqualTo(new Placement.OnNode("node-1"));
        assertThat(PodScheduler.place(null, Map.of("zone", "c"), nodes)).isInstanceOf(Placement.Unschedulable.class);
    }
}
