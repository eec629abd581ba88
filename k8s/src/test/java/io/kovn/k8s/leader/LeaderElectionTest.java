package io.kovn.k8s.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("real")
class LeaderElectionTest {

    // a lease long enough that a takeover before it expires proves the leader released it
    private static final Duration LEASE = Duration.ofSeconds(10);

    private KubernetesClient clientA;
    private KubernetesClient clientB;

    @BeforeEach
    void start() {
        LocalCluster cluster = SharedCluster.fresh();
        // a client each, as two cluster-manager processes have
        clientA = KubeClients.fromKubeconfig(cluster.adminKubeconfig());
        clientB = KubeClients.fromKubeconfig(cluster.adminKubeconfig());
    }

    @AfterEach
    void stop() {
        clientA.close();
        clientB.close();
    }

    @Test
    void oneOfTwoCandidatesLeadsAndTheOtherTakesOverWhenItReleases() {
        AtomicInteger leaders = new AtomicInteger();
        AtomicInteger maxLeaders = new AtomicInteger();
        List<String> events = new CopyOnWriteArrayList<>();
        var a = new LeaderElection(clientA, settings("a"), callbacks("a", leaders, maxLeaders, events));
        var b = new LeaderElection(clientB, settings("b"), callbacks("b", leaders, maxLeaders, events));
        try (a;
                b) {
            a.start();
            await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
            b.start();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> b.leader().orElse("").equals("a"));
            assertThat(b.isLeader()).isFalse();

            long released = System.nanoTime();
            a.close();
            await().atMost(Duration.ofSeconds(5)).until(b::isLeader);
            assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(LEASE);
            assertThat(a.isLeader()).isFalse();
            assertThat(client().leases()
                            .inNamespace("kube-system")
                            .withName("kovn-cluster-manager")
                            .get()
                            .getSpec()
                            .getHolderIdentity())
                    .isEqualTo("b");
        }
        assertThat(maxLeaders).as("never two leaders at once").hasValue(1);
        assertThat(events).startsWith("a started", "a stopped", "b started");
    }

    private KubernetesClient client() {
        return clientA;
    }

    private static LeaderElection.Settings settings(String identity) {
        return new LeaderElection.Settings(
                "kube-system", "kovn-cluster-manager", identity, LEASE, Duration.ofSeconds(8), Duration.ofMillis(200));
    }

    private static LeaderElection.Callbacks callbacks(
            String name, AtomicInteger leaders, AtomicInteger maxLeaders, List<String> events) {
        return new LeaderElection.Callbacks() {
            @Override
            public void onStartedLeading() {
                events.add(name + " started");
                maxLeaders.accumulateAndGet(leaders.incrementAndGet(), Math::max);
            }

            @Override
            public void onStoppedLeading() {
                leaders.decrementAndGet();
                events.add(name + " stopped");
            }
        };
    }
}
