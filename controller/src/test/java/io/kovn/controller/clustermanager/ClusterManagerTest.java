package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyStatus;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.events.DesiredCondition;
import io.kovn.k8s.local.AuditLog;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.policy.model.ZoneCondition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster manager against a real control plane ({@link SharedCluster}): node allocation, and the cleanup of deleted
 * nodes' zone conditions.
 */
@Tag("real")
class ClusterManagerTest {
    static final Duration WAIT = Duration.ofSeconds(20);
    LocalCluster cluster;
    /** The shared cluster's admin client: not closed here. */
    KubernetesClient client;

    final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        cluster = SharedCluster.fresh();
        client = cluster.admin();
    }

    Map<String, String> allocation(String node) {
        Node n = client.nodes().withName(node).get();
        Map<String, String> a = n.getMetadata().getAnnotations();
        return Map.of(
                OvnAnnotations.NODE_SUBNETS,
                a.get(OvnAnnotations.NODE_SUBNETS),
                OvnAnnotations.NODE_ID,
                a.get(OvnAnnotations.NODE_ID),
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR,
                a.get(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR),
                OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR,
                a.get(OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR));
    }

    boolean allocated(String node) {
        Node n = client.nodes().withName(node).get();
        return n != null
                && n.getMetadata().getAnnotations() != null
                && n.getMetadata().getAnnotations().containsKey(OvnAnnotations.NODE_ID);
    }

    @Test
    void concurrentNodeCreationNeverHandsOutAValueTwiceAndRestartMovesNothing() throws Exception {
        List<String> nodes = IntStream.range(0, 30).mapToObj(i -> "node-" + i).toList();
        try (ClusterManager cm = ClusterManager.start(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> {});
                var pool = Executors.newFixedThreadPool(8)) {
            for (String n : nodes) {
                pool.submit(() -> Clusters.node(client, n, "ch-" + n, "172.30.0.1", Map.of()));
            }
            pool.shutdown();
            await().atMost(WAIT).until(() -> nodes.stream().allMatch(this::allocated));
        }
        Map<String, Map<String, String>> before = new HashMap<>();
        Set<String> values = new HashSet<>();
        for (String n : nodes) {
            before.put(n, allocation(n));
            for (String v : allocation(n).values()) {
                assertThat(values.add(v)).as("duplicate %s", v).isTrue();
            }
        }
        // Restart: a new cluster manager adopts everything and writes nothing new; a new node gets a fresh value.
        try (ClusterManager cm = ClusterManager.start(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> {})) {
            Clusters.node(client, "late", "ch-late", "172.30.0.2", Map.of());
            await().atMost(WAIT).until(() -> allocated("late"));
            for (String n : nodes) {
                assertThat(allocation(n)).isEqualTo(before.get(n));
            }
            assertThat(allocation("late").get(OvnAnnotations.NODE_ID)).isEqualTo("32");
            assertThat(allocation("late").get(OvnAnnotations.NODE_SUBNETS))
                    .isEqualTo("{\"default\":[\"10.244.30.0/24\"]}");
        }
    }

    @Test
    void deletedNodeFreesItsValuesAndExhaustionIsAnEvent() {
        ClusterManagerConfig tiny = ClusterManagerConfig.of(List.of(ClusterNetwork.parse("10.0.0.0/23/24")));
        try (ClusterManager cm = ClusterManager.start(
                client,
                tiny,
                (o, w, r, m) ->
                        events.add(o.getMetadata().getName() + " " + (w ? "Warning " : "Normal ") + r + " " + m))) {
            Clusters.node(client, "n1", "c1", "172.30.0.1", Map.of());
            Clusters.node(client, "n2", "c2", "172.30.0.2", Map.of());
            await().atMost(WAIT).until(() -> allocated("n1") && allocated("n2"));
            Clusters.node(client, "n3", "c3", "172.30.0.3", Map.of());
            await().atMost(WAIT)
                    .until(
                            () -> events.stream()
                                    .anyMatch(
                                            e -> e.equals(
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
        ClusterManagerMain first = new ClusterManagerMain(
                client, ClusterManagerConfig.defaults(), (o, w, r, m) -> {}, "replica-1", "kube-system");
        ClusterManagerMain second = new ClusterManagerMain(
                client, ClusterManagerConfig.defaults(), (o, w, r, m) -> {}, "replica-2", "kube-system");
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

    @Test
    void conditionsOfMissingNodesAreRemovedAtStartAndWhenANodeIsDeletedButNotOnHeartbeats() {
        Clusters.node(client, "a", "ch-a", "172.30.0.1", Map.of());
        Clusters.node(client, "b", "ch-b", "172.30.0.2", Map.of());
        HasMetadata anp = client.resource(Serialization.unmarshal("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata: {name: default}
                spec: {priority: 5, subject: {namespaces: {}}}
                """, AdminNetworkPolicy.class))
                .create();
        HasMetadata banp = client.resource(Serialization.unmarshal("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: BaselineAdminNetworkPolicy
                metadata: {name: default}
                spec: {subject: {namespaces: {}}}
                """, BaselineAdminNetworkPolicy.class))
                .create();
        HasMetadata cnp = client.resource(Serialization.unmarshal("""
                apiVersion: policy.networking.k8s.io/v1alpha2
                kind: ClusterNetworkPolicy
                metadata: {name: default}
                spec: {tier: Baseline, priority: 5, subject: {namespaces: {}}}
                """, ClusterNetworkPolicy.class))
                .create();
        ConditionWriter writer = new ConditionWriter(client, Clock.systemUTC());
        for (HasMetadata policy : List.of(anp, banp, cnp)) {
            for (String zone : List.of("a", "b", "gone")) {
                writer.set(
                        policy,
                        new DesiredCondition(
                                ZoneCondition.typeFor(zone),
                                DesiredCondition.Status.True,
                                ZoneCondition.SUCCEEDED,
                                ZoneCondition.SUCCESS_MESSAGE));
            }
            writer.set(policy, new DesiredCondition("Audited", DesiredCondition.Status.True, "Checked", "by a tool"));
        }

        try (ClusterManager cm = ClusterManager.start(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> {})) {
            ZoneConditionCleanup cleanup = cm.conditionCleanup();
            await().atMost(WAIT)
                    .until(() -> types(anp()).equals(List.of("Ready-In-Zone-a", "Ready-In-Zone-b", "Audited"))
                            && types(banp()).equals(List.of("Ready-In-Zone-a", "Ready-In-Zone-b", "Audited"))
                            && types(cnp()).equals(List.of("Ready-In-Zone-a", "Ready-In-Zone-b", "Audited")));
            await().atMost(WAIT).until(cleanup::idle);

            long before = cleanup.reconciles();
            client.nodes()
                    .withName("a")
                    .subresource("status")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"KubeletReady\","
                                    + "\"lastHeartbeatTime\":\"2030-01-01T00:00:00Z\"}]}}");
            await().atMost(WAIT)
                    .until(() -> cm.allocator().allocationOf("a").isPresent()
                            && client.nodes()
                                            .withName("a")
                                            .get()
                                            .getStatus()
                                            .getConditions()
                                            .size()
                                    == 1);
            await().pollDelay(Duration.ofMillis(500)).atMost(WAIT).until(cleanup::idle);
            assertThat(cleanup.reconciles()).as("a heartbeat queues no policy").isEqualTo(before);

            client.nodes().withName("b").delete();
            await().atMost(WAIT)
                    .until(() -> types(anp()).equals(List.of("Ready-In-Zone-a", "Audited"))
                            && types(banp()).equals(List.of("Ready-In-Zone-a", "Audited"))
                            && types(cnp()).equals(List.of("Ready-In-Zone-a", "Audited")));
            Condition kept = anp().getStatus().conditions().getFirst();
            assertThat(List.of(kept.getStatus(), kept.getReason(), kept.getMessage()))
                    .containsExactly("True", ZoneCondition.SUCCEEDED, ZoneCondition.SUCCESS_MESSAGE);
        }
    }

    @Test
    void withoutTheCrdsTheCleanupKeepsListingAndNeverSyncs() {
        // the cluster without the ANP, BANP and CNP CRDs (the next SharedCluster.fresh() installs them again)
        for (var type :
                List.of(AdminNetworkPolicy.class, BaselineAdminNetworkPolicy.class, ClusterNetworkPolicy.class)) {
            var handle = client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(HasMetadata.getFullResourceName(type));
            handle.delete();
            handle.waitUntilCondition(Objects::isNull, 60, TimeUnit.SECONDS);
        }
        Instant since = Instant.now();
        SharedIndexInformer<Node> nodes = client.nodes().runnableInformer(0);
        try (KubernetesClient own = KubeClients.fromKubeconfig(cluster.adminKubeconfig());
                ZoneConditionCleanup cleanup =
                        new ZoneConditionCleanup(own, nodes, ControllerMetrics.NONE, Duration.ofMillis(100))) {
            nodes.start();
            cleanup.start();
            // each informer lists again after its first 404: it would stop for good without the handler
            await().atMost(WAIT)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> refusedLists(since, HasMetadata.getPlural(AdminNetworkPolicy.class)) >= 2
                            && refusedLists(since, HasMetadata.getPlural(BaselineAdminNetworkPolicy.class)) >= 2
                            && refusedLists(since, HasMetadata.getPlural(ClusterNetworkPolicy.class)) >= 2);
            assertThat(cleanup.idle()).isFalse();
        } finally {
            nodes.close();
        }
    }

    /** Lists of {@code resource} kube-apiserver answered with 404 since {@code since}, from its audit log. */
    long refusedLists(Instant since, String resource) {
        return AuditLog.read(cluster.controlPlane().auditLog()).stream()
                .filter(e -> !e.time().isBefore(since)
                        && e.verb().equals("list")
                        && e.resource().equals(resource)
                        && e.code() == 404)
                .count();
    }

    AdminNetworkPolicy anp() {
        return client.resources(AdminNetworkPolicy.class).withName("default").get();
    }

    BaselineAdminNetworkPolicy banp() {
        return client.resources(BaselineAdminNetworkPolicy.class)
                .withName("default")
                .get();
    }

    ClusterNetworkPolicy cnp() {
        return client.resources(ClusterNetworkPolicy.class).withName("default").get();
    }

    static List<String> types(ClusterNetworkPolicy p) {
        return p.getStatus() == null
                ? List.of()
                : p.getStatus().conditions().stream().map(Condition::getType).toList();
    }

    static List<String> types(AdminNetworkPolicy p) {
        return types(p.getStatus());
    }

    static List<String> types(BaselineAdminNetworkPolicy p) {
        return types(p.getStatus());
    }

    static List<String> types(AdminNetworkPolicyStatus status) {
        return status == null
                ? List.of()
                : status.conditions().stream().map(Condition::getType).toList();
    }
}
