package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.NetworkController;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.leader.LeaderElection;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Leadership of the cluster manager moving between replicas, each with its own client against a real kube-apiserver,
 * while nodes and user-defined networks come and go: the leader is killed (its connection dies first, so it neither
 * renews nor releases the Lease, as after a SIGKILL) and a fresh replica joins, several times. The Lease moves to the
 * survivor, every node and network ends up allocated, and no value (node id, node subnet of any network, transit and
 * gateway router addresses, network id) is ever held by two objects at once.
 */
@Tag("real")
class LeaderFailoverTest {
    static final Duration WAIT = Duration.ofSeconds(30);
    static final int MOVES = 3;
    /** Short terms: a killed leader's Lease expires in 3 s instead of client-go's 15 s. */
    static final Duration LEASE = Duration.ofSeconds(3);

    LocalCluster cluster;
    KubernetesClient admin;
    final List<Replica> replicas = new ArrayList<>();
    int replicaCount;

    /** One cluster-manager replica with its own connection (its own process in a cluster). */
    record Replica(String identity, KubernetesClient client, ClusterManagerMain main) {
        void kill() {
            client.close(); // connections gone first: no renewal, no release, no further write
            main.close();
        }
    }

    @BeforeEach
    void start() {
        cluster = SharedCluster.fresh();
        admin = cluster.admin();
    }

    @AfterEach
    void stop() {
        replicas.forEach(Replica::kill);
    }

    Replica replica() {
        String identity = "replica-" + replicaCount++;
        KubernetesClient client = cluster.clientAs("system:" + identity, "system:masters");
        ClusterManagerMain main = new ClusterManagerMain(
                client,
                ClusterManagerConfig.defaults(),
                (o, w, r, m) -> {},
                new LeaderElection.Settings(
                        "kube-system",
                        ClusterManagerMain.LEASE,
                        identity,
                        LEASE,
                        Duration.ofSeconds(2),
                        Duration.ofMillis(500)));
        Replica replica = new Replica(identity, client, main);
        replicas.add(replica);
        main.start();
        return replica;
    }

    @Test
    void leadershipMovesWhenTheLeaderIsKilledAndNoValueIsEverGivenTwice() throws Exception {
        replica();
        replica();
        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicInteger nodesMade = new AtomicInteger();
        AtomicInteger networksMade = new AtomicInteger();
        List<String> violations = new ArrayList<>();
        Thread churn = Thread.ofPlatform().name("node-network-churn").start(() -> {
            Deque<String> live = new ArrayDeque<>();
            for (int i = 0; churning.get(); i++) {
                try {
                    String name = "n" + i;
                    Clusters.node(admin, name, "ch-" + i, "172.30." + (i / 250) + "." + (1 + i % 250), Map.of());
                    live.add(name);
                    nodesMade.incrementAndGet();
                    if (live.size() > 6) admin.nodes().withName(live.poll()).delete();
                    if (i % 4 == 0) {
                        int n = networksMade.getAndIncrement();
                        udn("u" + n, "10." + (100 + n) + ".0.0/16");
                    }
                    synchronized (violations) {
                        violations.addAll(doubleAllocations());
                    }
                    Thread.sleep(150);
                } catch (KubernetesClientException e) {
                    // a write refused in passing (e.g. a namespace still terminating): go on
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            for (int move = 0; move < MOVES; move++) {
                Replica leader = awaitLeader();
                Thread.sleep(1_000); // allocating under churn
                replicas.remove(leader);
                leader.kill();
                replica();
                Replica next = awaitLeader();
                assertThat(next.identity()).isNotEqualTo(leader.identity());
                assertThat(leaseHolder()).isEqualTo(next.identity());
                assertThat(doubleAllocations()).as("after move " + move).isEmpty();
            }
        } finally {
            churning.set(false);
            churn.join(30_000);
        }
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(admin.nodes().list().getItems())
                    .allSatisfy(n -> assertThat(annotations(n)).containsKeys(OvnAnnotations.NODE_ID));
            for (int n = 0; n < networksMade.get(); n++) {
                assertThat(networkId("u" + n)).as("network id of u" + n).isNotNull();
            }
        });
        assertThat(doubleAllocations()).isEmpty();
        synchronized (violations) {
            assertThat(violations).as("values held twice during the churn").isEmpty();
        }
        assertThat(nodesMade.get()).as("nodes made during the moves").isGreaterThan(10);
    }

    /** The one replica running the cluster manager, once there is exactly one. */
    Replica awaitLeader() {
        return await().atMost(WAIT)
                .until(
                        () -> {
                            List<Replica> leading = replicas.stream()
                                    .filter(r -> r.main().isLeader())
                                    .toList();
                            return leading.size() == 1 ? leading.getFirst() : null;
                        },
                        r -> r != null);
    }

    String leaseHolder() {
        return admin.leases()
                .inNamespace("kube-system")
                .withName(ClusterManagerMain.LEASE)
                .get()
                .getSpec()
                .getHolderIdentity();
    }

    /** Every value that two live nodes, or two live networks, hold at the same time. */
    List<String> doubleAllocations() {
        Map<String, String> holders = new HashMap<>();
        List<String> twice = new ArrayList<>();
        for (Node node : admin.nodes().list().getItems()) {
            String name = node.getMetadata().getName();
            Map<String, String> a = annotations(node);
            List<String> values = new ArrayList<>();
            for (String key : List.of(
                    OvnAnnotations.NODE_ID,
                    OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR,
                    OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR)) {
                if (a.get(key) != null) values.add(key + "=" + a.get(key));
            }
            if (a.get(OvnAnnotations.NODE_SUBNETS) != null) {
                try {
                    NodeSubnets.parse(a.get(OvnAnnotations.NODE_SUBNETS))
                            .byNetwork()
                            .forEach((network, subnets) ->
                                    subnets.forEach(s -> values.add("subnet " + network + " " + s)));
                } catch (AnnotationFormatException e) {
                    twice.add(name + ": unreadable node subnets " + e.getMessage());
                }
            }
            for (String v : values) {
                String other = holders.putIfAbsent(v, name);
                if (other != null) twice.add(v + " held by " + other + " and " + name);
            }
        }
        for (GenericKubernetesResource udn : admin.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inAnyNamespace()
                .list()
                .getItems()) {
            String id = annotations(udn).get(NetworkController.NETWORK_ID_ANNOTATION);
            String name =
                    udn.getMetadata().getNamespace() + "/" + udn.getMetadata().getName();
            if (id != null && holders.putIfAbsent("network-id=" + id, name) instanceof String other) {
                twice.add("network id " + id + " held by " + other + " and " + name);
            }
        }
        return twice;
    }

    void udn(String namespace, String cidr) {
        admin.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .withLabels(Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, ""))
                        .endMetadata()
                        .build())
                .create();
        admin.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(namespace)
                .resource(Serialization.unmarshal("""
                        apiVersion: k8s.ovn.org/v1
                        kind: UserDefinedNetwork
                        metadata: {name: net, namespace: %s}
                        spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: %s}]}}
                        """.formatted(namespace, cidr), GenericKubernetesResource.class))
                .create();
    }

    String networkId(String namespace) {
        GenericKubernetesResource r = admin.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(namespace)
                .withName("net")
                .get();
        return r == null ? null : annotations(r).get(NetworkController.NETWORK_ID_ANNOTATION);
    }

    static Map<String, String> annotations(HasMetadata o) {
        Map<String, String> a = o.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
