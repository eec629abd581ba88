package io.kovn.controller.zone;

import static io.kovn.controller.testing.OvnTables.nb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.testing.Clusters;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The per-pod switch port path of one zone on a real NB/SB (no northd): a pod add is one transaction and never re-plans
 * the topology, a relabel writes nothing, deletes and finished pods lose their port, a deleted port comes back, and a
 * restart removes the ports of pods that no longer exist, keeps foreign ports and otherwise writes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class PodPortsTest {
    static final Duration CONVERGE = OneZone.CONVERGE;

    OneZone cluster;
    KubernetesClient client;
    OvnDatabases db;
    ZoneController zone;

    @BeforeAll
    void start() {
        cluster = OneZone.start("node-a", c -> {
            Clusters.allocatedNode(
                    c, "node-a", 2, List.of("10.244.0.0/24"), "{\"ipv4\":\"100.88.0.2/16\"}", "172.31.0.2");
            Clusters.allocatedNode(
                    c, "node-b", 3, List.of("10.244.1.0/24"), "{\"ipv4\":\"100.88.0.3/16\"}", "172.31.0.3");
            Clusters.pod(c, "default", "web-1", "node-a", false);
            Clusters.pod(c, "default", "web-2", "node-a", false);
            Clusters.pod(c, "default", "remote", "node-b", false);
        });
        client = cluster.client;
        db = cluster.db;
        zone = cluster.zone();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    String port(String pod) {
        PodNetwork n = PodNetworks.parse(Clusters.podNetworks(client, "default", pod))
                .defaultNetwork()
                .orElseThrow();
        String a = n.macAddress() + " " + IpLiterals.format(n.ips().getFirst());
        return "name=default_" + pod + " addresses=" + a + " port_security=" + a;
    }

    /** The last transactions the NB committed, as {@code ovsdb-tool show-log} prints them (for a failure's message). */
    String nbLogTail() {
        List<String> lines = Tools.run(List.of(
                        db.runtime().bin("ovsdb-tool").toString(),
                        "-m",
                        "show-log",
                        db.nb().dbFile().toString()))
                .lines()
                .toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    List<String> podPorts() {
        return nb(db, "Logical_Switch_Port", "name", "addresses", "port_security").stream()
                .filter(l -> l.startsWith("name=default_"))
                .toList();
    }

    OneZone.Caused settle(Runnable change, BooleanSupplier done) {
        return cluster.settle(change, done);
    }

    @Test
    @Order(1)
    void servedPodsHaveTheirPortsOnTheNodeSwitch() {
        await().atMost(CONVERGE)
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(podPorts()).containsExactly(port("web-1"), port("web-2")));
        assertThat(db.nbctl("lsp-list", "node-a"))
                .contains("(default_web-1)", "(default_web-2)", "(stor-node-a)")
                .doesNotContain("remote");
    }

    @Test
    @Order(2)
    void aPodAddIsOneTransactionOfTwoOperationsWithoutATopologyReconcile() {
        OneZone.Caused c = settle(
                () -> Clusters.pod(client, "default", "web-3", "node-a", false),
                () -> podPorts().size() == 3);
        assertThat(podPorts()).contains(port("web-3"));
        assertThat(c.nb().transactions()).isEqualTo(1);
        assertThat(c.nb().writeOperations()).isEqualTo(2); // insert the port, mutate the switch's ports
        assertThat(c.topologyReconciles()).isZero();
    }

    @Test
    @Order(3)
    void aRelabelIsNoWorkForTheZone() {
        long before = zone.podPorts().times().count();
        // the zone reads no labels (PodView.zoneFields): the update queues no reconcile
        OneZone.Caused c = settle(
                () -> client.pods().inNamespace("default").withName("web-1").edit(p -> {
                    p.getMetadata().setLabels(Map.of("app", "other"));
                    return p;
                }),
                () -> true);
        assertThat(zone.podPorts().times().count()).isEqualTo(before);
        assertThat(c.nb().transactions()).isZero();
        assertThat(c.topologyReconciles()).isZero();
    }

    @Test
    @Order(4)
    void aDeletedOrFinishedPodLosesItsPortInOneTransaction() {
        // at once: no kubelet confirms a graceful delete
        OneZone.Caused deleted = settle(
                () -> client.pods()
                        .inNamespace("default")
                        .withName("web-2")
                        .withGracePeriod(0)
                        .delete(),
                () -> podPorts().size() == 2);
        assertThat(deleted.nb().transactions()).isEqualTo(1);
        assertThat(deleted.nb().writeOperations())
                .isEqualTo(1); // the switch's ports mutate; the port is garbage-collected
        assertThat(deleted.topologyReconciles()).isZero();
        OneZone.Caused finished = settle(
                () -> client.pods().inNamespace("default").withName("web-3").editStatus(p -> {
                    p.getStatus().setPhase("Succeeded");
                    return p;
                }),
                () -> podPorts().size() == 1);
        assertThat(finished.nb().transactions()).isEqualTo(1);
        assertThat(podPorts()).containsExactly(port("web-1"));
        assertThat(db.nbctl("lsp-list", "node-a")).doesNotContain("web-2", "web-3");
    }

    @Test
    @Order(5)
    void aPortDeletedUnderTheZoneComesBack() {
        OneZone.Caused c = settle(
                () -> db.nbctl("lsp-del", "default_web-1"), () -> podPorts().equals(List.of(port("web-1"))));
        assertThat(c.nb().transactions()).isEqualTo(1);
        assertThat(c.topologyReconciles()).isZero();
    }

    @Test
    @Order(6)
    void aRestartRemovesPortsOfPodsThatAreGoneKeepsForeignPortsAndOtherwiseWritesNothing() {
        zone = cluster.restart(() -> {
            // A crash left the port of a pod that no longer exists; someone else hangs a port on the switch.
            db.nbctl(
                    "lsp-add",
                    "node-a",
                    "default_ghost",
                    "--",
                    "set",
                    "Logical_Switch_Port",
                    "default_ghost",
                    "external_ids:k8s.ovn.org/owner-controller=default-network-controller",
                    "external_ids:k8s.ovn.org/owner-type=Pod",
                    "external_ids:k8s.ovn.org/name=default/ghost",
                    "external_ids:k8s.ovn.org/id=default-network-controller:Pod:default/ghost");
            db.nbctl("lsp-add", "node-a", "someone-elses-port");
        });
        TrafficCounters nbc = zone.databases().nbCounters();
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(db.nbctl("lsp-list", "node-a"))
                        .doesNotContain("default_ghost")
                        .contains("someone-elses-port", "default_web-1"));
        assertThat(podPorts()).containsExactly(port("web-1"));
        await().atMost(CONVERGE).until(() -> zone.idle() && zone.topology().reconciles() > 0);
        // the ghost's detach, nothing else (seen once as 2 in a suite run: the NB's log says what was written)
        assertThat(nbc.transactions())
                .as(() -> "NB transactions since the restart; the NB's log ends with\n" + nbLogTail())
                .isEqualTo(1);
        assertThat(zone.databases().sbCounters().transactions()).isZero();

        zone = cluster.restart(() -> {});
        await().atMost(CONVERGE)
                .until(() -> zone.topology().reconciles() > 0
                        && zone.podPorts().times().count() >= 1
                        && zone.idle());
        assertThat(zone.databases().nbCounters().transactions()).isZero();
        assertThat(zone.databases().sbCounters().transactions()).isZero();
        db.nbctl("lsp-del", "someone-elses-port");
    }
}
