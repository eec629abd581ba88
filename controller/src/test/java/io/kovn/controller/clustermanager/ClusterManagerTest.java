package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.apiserver.EmbeddedApiServer;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cluster manager against the embedded API server. */
class ClusterManagerTest {
    static final Duration WAIT = Duration.ofSeconds(20);
    EmbeddedApiServer api;
    KubernetesClient client;
    final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        api = EmbeddedApiServer.start();
        client = api.newClient();
    }

    @AfterEach
    void stop() {
        client.close();
        api.close();
    }

    Map<String, String> allocation(String node) {
        Node n = client.nodes().withName(node).get();
        Map<String, String> a = n.getMetadata().getAnnotations();
        return Map.of(OvnAnnotations.NODE_SUBNETS, a.get(OvnAnnotations.NODE_SUBNETS),
                OvnAnnotations.NODE_ID, a.get(OvnAnnotations.NODE_ID),
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, a.get(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR));
    }

    boolean allocated(String node) {
        Node n = client.nodes().withName(node).get();
        return n != null && n.getMetadata().getAnnotations() != null
                && n.getMetadata().getAnnotations().containsKey(OvnAnnotations.NODE_ID);
    }

    @Test
    void concurrentNodeCreationNeverHandsOutAValueTwiceAndRestartMovesNothing() throws Exception {
        List<String> nodes = IntStream.range(0, 30).mapToObj(i -> "node-" + i).toList();
        try (ClusterManager cm = ClusterManager.start(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> { });
             var pool = Executors.newFixedThreadPool(8)) {
            for (String n : nodes) {
                pool.submit(() -> Clusters.node(client, n, "ch-" + n, "172.30.0.1", Map.of()));
            }
            pool.shutdown();
            await().atMost(WAIT).until(() -> nodes.stream().allMatch(this::allocated));
        }
        Map<String, Map<String, String>> before = new java.util.HashMap<>();
        Set<String> values = new HashSet<>();
        for (String n : nodes) {
            before.put(n, allocation(n));
            for (String v : allocation(n).values()) {
                assertThat(values.add(v)).as("duplicate %s", v).isTrue();
            }
        }
        // Restart: a new cluster manager adopts everything and writes nothing new; a new node gets a fresh value.
        try (ClusterManager cm = ClusterManager.start(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> { })) {
            Clusters.node(client, "late", "ch-late", "172.30.0.2", Map.of());
            await().atMost(WAIT).until(() -> allocated("late"));
            for (String n : nodes) {
                assertThat(allocation(n)).isEqualTo(before.get(n));
            }
            assertThat(allocation("late").get(OvnAnnotations.NODE_ID)).isEqualTo("32");
            assertThat(allocation("late").get(OvnAnnotations.NODE_SUBNETS)).isEqualTo("{\"default\":[\"10.244.30.0/24\"]}");
        }
    }

    @Test
    void deletedNodeFreesItsValuesAndExhaustionIsAnEvent() {
        ClusterManagerConfig tiny = ClusterManagerConfig.of(List.of(ClusterNetwork.parse("10.0.0.0/23/24")));
        try (ClusterManager cm = ClusterManager.start(client, tiny,
                (o, w, r, m) -> events.add(o.getMetadata().getName() + " " + (w ? "Warning " : "Normal ") + r + " " + m))) {
            Clusters.node(client, "n1", "c1", "172.30.0.1", Map.of());
            Clusters.node(client, "n2", "c2", "172.30.0.2", Map.of());
            await().atMost(WAIT).until(() -> allocated("n1") && allocated("n2"));
            Clusters.node(client, "n3", "c3", "172.30.0.3", Map.of());
            await().atMost(WAIT).until(() -> events.stream().anyMatch(e -> e.equals(
                    "n3 Warning NodeAllocationFailed no free ipv4 node subnet in cluster networks [10.0.0.0/23/24] for node n3")));
            assertThat(allocated("n3")).isFalse();
            String freed = allocation("n1").get(OvnAnnotations.NODE_SUBNETS);
            client.nodes().withName("n1").delete();
            await().atMost(WAIT).until(() -> allocated("n3"));
            assertThat(allocation("n3").get(OvnAnnotations.NODE_SUBNETS)).isEqualTo(freed);
        }
    }

    @Test
    void onlyTheLeaderAllocatesAndAnotherReplicaTakesOver() {
        ClusterManagerMain first = new ClusterManagerMain(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> { },
                "replica-1", "kube-system");
        ClusterManagerMain second = new ClusterManagerMain(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> { },
                "replica-2", "kube-system");
        try (second) {
            first.start();
            await().atMost(WAIT).until(first::isLeader);
            second.start();
            Clusters.node(client, "n1", "c1", "172.30.0.1", Map.of());
            await().atMost(WAIT).until(() -> allocated("n1"));
            assertThat(second.isLeader()).isFalse();
            first.close();
            await().atMost(Duration.ofSeconds(40)).until(second::isLeader);
            Clusters.node(client, "n2", "c2", "172.30.0.2", Map.of());
            await().atMost(WAIT).until(() -> allocated("n2"));
            assertThat(allocation("n2").get(OvnAnnotations.NODE_ID)).isEqualTo("3");
        } finally {
            first.close();
        }
    }
}
