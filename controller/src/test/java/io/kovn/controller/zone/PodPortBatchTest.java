package io.kovn.controller.zone;

import static io.kovn.controller.testing.OvnTables.nb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.testing.Clusters;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The bulk path of the pod ports on a real NB/SB and API server: a cold start with {@value #PODS} addressed pods writes
 * their ports in a handful of transactions, one pod added afterwards is still one transaction, and a restart with
 * nothing changed writes nothing; a burst of pods without addresses gets distinct ones from the parallel address
 * workers, and their ports.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class PodPortBatchTest {
    static final int PODS = 300;
    static final IpPrefix SUBNET = IpPrefix.parse("10.244.0.0/23");

    OneZone cluster;
    KubernetesClient client;
    OvnDatabases db;
    long zoneStarted;

    @BeforeAll
    void start() {
        cluster = OneZone.start("node-a", c -> {
            Clusters.allocatedNode(
                    c, "node-a", 2, List.of(SUBNET.toString()), "{\"ipv4\":\"100.88.0.2/16\"}", "172.31.0.2");
            try (var pool = Executors.newFixedThreadPool(8)) {
                var created = IntStream.range(0, PODS)
                        .mapToObj(i -> pool.submit(() -> addressedPod(c, i)))
                        .toList();
                for (var f : created) {
                    f.get();
                }
            } catch (Exception e) {
                throw new IllegalStateException("creating the pods", e);
            }
            zoneStarted = System.nanoTime();
        });
        client = cluster.client;
        db = cluster.db;
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A pod on node-a that already holds its address (as after a restart of the zone). */
    static void addressedPod(KubernetesClient c, int i) {
        InetAddress ip = SUBNET.addressAt(i + 3);
        PodNetwork n = PodNetwork.primary(
                List.of(new IpPrefix(ip, SUBNET.length())), MacAddresses.fromIp(ip), List.of(SUBNET.addressAt(1)));
        c.pods()
                .inNamespace("default")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("p-" + i)
                        .withNamespace("default")
                        .withAnnotations(Map.of(
                                OvnAnnotations.POD_NETWORKS,
                                PodNetworks.ofDefault(n).format()))
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("node-a")
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    long podPorts() {
        return nb(db, "Logical_Switch_Port", "name").stream()
                .filter(l -> l.startsWith("name=default_p-"))
                .count();
    }

    @Test
    @Order(1)
    void aColdStartWritesHundredsOfPortsInAFewTransactions() {
        ZoneController zone = cluster.zone();
        await().atMost(OneZone.CONVERGE).pollInterval(Duration.ofMillis(20)).until(() -> podPorts() == PODS);
        long elapsed = System.nanoTime() - zoneStarted;
        OneZone.Caused c = cluster.settle(() -> {}, () -> true);
        TrafficCounters.Snapshot all = zone.databases().nbCounters().snapshot();
        var writes = zone.podPorts().times().recent().stream()
                .filter(t -> t.operations() > 0)
                .toList();
        System.out.printf(
                "cold start of %d pods: all ports %d ms after the zone's start began; NB %d transactions,"
                        + " %d operations; port writes (ms, of which planning ms, operations): %s%n",
                PODS,
                elapsed / 1_000_000,
                all.transactions(),
                all.writeOperations(),
                writes.stream()
                        .map(t -> t.nanos() / 1_000_000 + "/" + t.computeNanos() / 1_000_000 + "/" + t.operations())
                        .toList());
        assertThat(db.nbctl("lsp-list", "node-a")).contains("(default_p-0)", "(default_p-" + (PODS - 1) + ")");
        // the topology's few, and the pods' ports in batches of at most 256
        assertThat(all.transactions()).isLessThanOrEqualTo(10);
        assertThat(c.nb().transactions()).isLessThanOrEqualTo(all.transactions());
    }

    @Test
    @Order(2)
    void onePodAddedInTheSteadyStateIsOneTransaction() {
        OneZone.Caused c = cluster.settle(() -> addressedPod(client, PODS), () -> podPorts() == PODS + 1);
        assertThat(c.nb().transactions()).isEqualTo(1);
        assertThat(c.nb().writeOperations()).isEqualTo(2); // insert the port, mutate the switch's ports
        assertThat(c.topologyReconciles()).isZero();
    }

    @Test
    @Order(3)
    void aRestartWithNothingChangedWritesNothing() {
        ZoneController zone = cluster.restart(() -> {});
        await().atMost(OneZone.CONVERGE)
                .until(() -> zone.topology().reconciles() > 0
                        && zone.podPorts().times().count() >= 1
                        && zone.idle());
        System.out.printf(
                "restart, %d pods converged: port reconciles (ms): %s%n",
                PODS + 1,
                zone.podPorts().times().recent().stream()
                        .map(t -> t.nanos() / 1_000_000)
                        .toList());
        assertThat(zone.databases().nbCounters().transactions()).isZero();
        assertThat(zone.databases().sbCounters().transactions()).isZero();
        assertThat(podPorts()).isEqualTo(PODS + 1);
    }

    @Test
    @Order(4)
    void aBurstOfNewPodsGetsDistinctAddressesAndTheirPorts() throws Exception {
        int burst = 100;
        long started = System.nanoTime();
        try (var pool = Executors.newFixedThreadPool(8)) {
            var created = IntStream.range(0, burst)
                    .mapToObj(i -> pool.submit(() -> Clusters.pod(client, "default", "n-" + i, "node-a", false)))
                    .toList();
            for (var f : created) {
                f.get();
            }
        }
        await().atMost(OneZone.CONVERGE)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> nb(db, "Logical_Switch_Port", "name").stream()
                                .filter(l -> l.startsWith("name=default_n-"))
                                .count()
                        == burst);
        long elapsed = System.nanoTime() - started;
        List<String> addresses = client.pods().inNamespace("default").list().getItems().stream()
                .map(p -> PodNetworks.parse(p.getMetadata().getAnnotations().get(OvnAnnotations.POD_NETWORKS))
                        .defaultNetwork()
                        .orElseThrow()
                        .ipAddresses()
                        .getFirst()
                        .toString())
                .toList();
        System.out.printf(
                "burst of %d new pods: addressed and ported %d ms after the first create%n",
                burst, elapsed / 1_000_000);
        assertThat(addresses).hasSize(PODS + 1 + burst).doesNotHaveDuplicates();
    }
}
