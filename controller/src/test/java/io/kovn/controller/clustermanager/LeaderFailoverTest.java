package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.connect.ConnectPlan;
import io.kovn.controller.network.NetworkController;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.leader.LeaderElection;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NetworkConnectSubnets;
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
 * while nodes, user-defined networks and ClusterNetworkConnects (connecting those networks) come and go: the leader is
 * killed (its connection dies first, so it neither renews nor releases the Lease, as after a SIGKILL) and a fresh
 * replica joins, several times. The Lease moves to the survivor, every node, network and live CNC ends up allocated,
 * and no value (node id, node subnet of any network, transit and gateway router addresses, network id, CNC tunnel key,
 * CNC link subnet) is ever held by two objects at once.
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
                withConnectingNetworks(ClusterManagerConfig.defaults()),
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
        AtomicInteger connectsMade = new AtomicInteger();
        List<String> violations = new ArrayList<>();
        Thread churn = Thread.ofPlatform().name("node-network-churn").start(() -> {
            Deque<String> live = new ArrayDeque<>();
            Deque<String> liveConnects = new ArrayDeque<>();
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
                    if (i % 6 == 3) {
                        // a CNC connecting every primary UDN, at most two at a time: allocations freed and made anew
                        int c = connectsMade.getAndIncrement();
                        cnc("c" + c, "192.168." + 16 * (c % 16) + ".0/20");
                        liveConnects.add("c" + c);
                        if (liveConnects.size() > 2)
                            connects().withName(liveConnects.poll()).delete();
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
            List<String> networkKeys = new ArrayList<>();
            for (int n = 0; n < networksMade.get(); n++) {
                String id = networkId("u" + n);
                assertThat(id).as("network id of u" + n).isNotNull();
                networkKeys.add(NetworkConnectSubnets.networkKey(false, Integer.parseInt(id)));
            }
            List<GenericKubernetesResource> cncs = connects().list().getItems();
            assertThat(cncs).as("live CNCs").isNotEmpty();
            for (GenericKubernetesResource cnc : cncs) {
                Map<String, String> a = annotations(cnc);
                assertThat(a)
                        .as(cnc.getMetadata().getName())
                        .containsKeys(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY, OvnAnnotations.NETWORK_CONNECT_SUBNET);
                assertThat(NetworkConnectSubnets.parse(a.get(OvnAnnotations.NETWORK_CONNECT_SUBNET))
                                .byNetwork())
                        .as("link subnets of " + cnc.getMetadata().getName())
                        .containsOnlyKeys(networkKeys);
                assertThat(accepted(cnc)).as(cnc.getMetadata().getName()).isEqualTo("True");
            }
        });
        assertThat(doubleAllocations()).isEmpty();
        synchronized (violations) {
            assertThat(violations).as("values held twice during the churn").isEmpty();
        }
        assertThat(nodesMade.get()).as("nodes made during the moves").isGreaterThan(10);
        assertThat(connectsMade.get()).as("CNCs made during the moves").isGreaterThan(2);
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
        // CNCs: tunnel keys across all CNCs; link subnets across every network of every CNC (their connectSubnets are
        // disjoint, and a CNC's blocks are one size, so a shared block is the one way two could overlap)
        for (GenericKubernetesResource cnc : connects().list().getItems()) {
            String name = "cnc " + cnc.getMetadata().getName();
            Map<String, String> a = annotations(cnc);
            String key = a.get(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY);
            if (key != null && holders.putIfAbsent("tunnel-key=" + key, name) instanceof String other) {
                twice.add("tunnel key " + key + " held by " + other + " and " + name);
            }
            String subnets = a.get(OvnAnnotations.NETWORK_CONNECT_SUBNET);
            if (subnets == null) continue;
            try {
                NetworkConnectSubnets.parse(subnets).byNetwork().forEach((network, prefixes) -> {
                    for (IpPrefix p : prefixes) {
                        String holder = name + " " + network;
                        if (holders.putIfAbsent("link subnet " + p, holder) instanceof String other) {
                            twice.add("link subnet " + p + " held by " + other + " and " + holder);
                        }
                    }
                });
            } catch (AnnotationFormatException e) {
                twice.add(name + ": unreadable link subnets " + e.getMessage());
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

    /** A ClusterNetworkConnect of every primary UDN's network, its link subnets out of {@code cidr}. */
    void cnc(String name, String cidr) {
        connects()
                .resource(Serialization.unmarshal(
                        """
                        apiVersion: k8s.ovn.org/v1
                        kind: ClusterNetworkConnect
                        metadata: {name: %s}
                        spec:
                          networkSelectors:
                          - networkSelectionType: PrimaryUserDefinedNetworks
                            primaryUserDefinedNetworkSelector:
                              namespaceSelector: {matchExpressions: [{key: %s, operator: Exists}]}
                          connectSubnets: [{cidr: %s, networkPrefix: 28}]
                          connectivity: [PodNetwork]
                        """.formatted(name, NetworkPlan.PRIMARY_NAMESPACE_LABEL, cidr),
                        GenericKubernetesResource.class))
                .create();
    }

    NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            connects() {
        return admin.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT);
    }

    /** The status of a CNC's Accepted condition, or null. */
    @SuppressWarnings("unchecked")
    static String accepted(GenericKubernetesResource cnc) {
        if (!(cnc.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
                || !(status.get("conditions") instanceof List<?> conditions)) {
            return null;
        }
        return conditions.stream()
                .map(c -> (Map<String, Object>) c)
                .filter(c -> ConnectPlan.ACCEPTED.equals(c.get("type")))
                .map(c -> String.valueOf(c.get("status")))
                .findFirst()
                .orElse(null);
    }

    /** {@code config} with ClusterNetworkConnects served ({@code --enable-connecting-networks}). */
    static ClusterManagerConfig withConnectingNetworks(ClusterManagerConfig config) {
        return new ClusterManagerConfig(
                config.clusterNetworks(),
                config.transitV4(),
                config.transitV6(),
                config.maxNodeId(),
                config.controllerMetrics(),
                config.serviceNetworks(),
                true,
                config.networkSegmentation(),
                config.adminNetworkPolicies());
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
