package io.kovn.controller.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.clustermanager.ClusterManager;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * User-defined networks in the cluster manager against a real kube-apiserver with kovn's CRDs: NetworkCreated
 * conditions and Events, ids, node subnets of Layer3 networks, restart.
 */
@Tag("real")
class NetworkControllerTest {
    static final Duration WAIT = Duration.ofSeconds(20);
    LocalCluster cluster;
    KubernetesClient client;
    final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        cluster = SharedCluster.fresh();
        client = cluster.admin();
    }

    void namespace(String name, boolean primaryLabel) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(primaryLabel ? Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "") : Map.of())
                        .endMetadata()
                        .build())
                .create();
    }

    void udn(String ns, String name, String body) {
        GenericKubernetesResource r =
                Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: %s, namespace: %s}
                spec: %s
                """.formatted(name, ns, body), GenericKubernetesResource.class);
        client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(ns)
                .resource(r)
                .create();
    }

    GenericKubernetesResource get(String ns, String name) {
        return client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(ns)
                .withName(name)
                .get();
    }

    /** {@code status reason: message} of NetworkCreated, or null. */
    String created(String ns, String name) {
        GenericKubernetesResource r = get(ns, name);
        if (r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) return null;
        if (!(status.get("conditions") instanceof List<?> conditions)) return null;
        for (Object o : conditions) {
            Map<?, ?> c = (Map<?, ?>) o;
            if (NetworkController.NETWORK_CREATED.equals(c.get("type")))
                return c.get("status") + " " + c.get("reason") + ": " + c.get("message");
        }
        return null;
    }

    String id(String ns, String name) {
        GenericKubernetesResource r = get(ns, name);
        return r == null || r.getMetadata().getAnnotations() == null
                ? null
                : r.getMetadata().getAnnotations().get(NetworkController.NETWORK_ID_ANNOTATION);
    }

    String nodeSubnets(String node) {
        return client.nodes()
                .withName(node)
                .get()
                .getMetadata()
                .getAnnotations()
                .get(OvnAnnotations.NODE_SUBNETS);
    }

    static final String L3 = "{topology: Layer3, layer3: {role: Primary, subnets: [{cidr: %s}]}}";

    @Test
    void networksAreAcceptedOrRefusedWithAReasonAndLayer3NetworksGetNodeSubnets() {
        namespace("blue", true);
        namespace("green", true);
        namespace("plain", false);
        Clusters.node(client, "n1", "c1", "172.30.0.1", Map.of());
        try (ClusterManager cm = ClusterManager.start(
                client,
                ClusterManagerConfig.defaults(),
                (o, w, r, m) ->
                        events.add(o.getMetadata().getName() + " " + (w ? "Warning " : "Normal ") + r + " " + m))) {
            udn("blue", "net", L3.formatted("10.100.0.0/16"));
            await().atMost(WAIT).until(() -> created("blue", "net") != null);
            udn("green", "net", L3.formatted("10.100.0.0/16"));
            udn("blue", "second", L3.formatted("10.101.0.0/16"));
            udn("plain", "net", L3.formatted("10.100.0.0/16"));
            udn("green", "overlap", L3.formatted("10.96.0.0/20"));
            udn("green", "broken", L3.formatted("10.100.0.1/16"));
            await().atMost(WAIT)
                    .until(() -> created("green", "broken") != null
                            && created("green", "net") != null
                            && created("blue", "second") != null
                            && created("plain", "net") != null);
            assertThat(created("blue", "net"))
                    .isEqualTo("True NetworkCreated: network blue_net (id 1, Layer3 [10.100.0.0/16])"
                            + " is the primary network of namespaces [blue]");
            assertThat(id("blue", "net")).isEqualTo("1");
            assertThat(created("green", "net")).startsWith("True NetworkCreated: network green_net (id 2,");
            assertThat(created("blue", "second"))
                    .isEqualTo("False PrimaryNetworkConflict: namespace blue already has"
                            + " primary network blue_net; a namespace has one primary network");
            assertThat(id("blue", "second")).isNull();
            assertThat(created("plain", "net"))
                    .startsWith("False NamespaceNotLabelled: namespace plain lacks the label");
            assertThat(created("green", "overlap"))
                    .as("green has a primary network already: that is said first")
                    .startsWith("False ");
            assertThat(created("green", "broken"))
                    .isEqualTo(
                            "False InvalidSpec: layer3.subnets[].cidr: 10.100.0.1/16 has host bits set (the network is 10.100.0.0/16)");
            await().atMost(WAIT)
                    .until(() -> events.contains("second Warning PrimaryNetworkConflict namespace blue already has"
                            + " primary network blue_net; a namespace has one primary network"));
            assertThat(events).anyMatch(e -> e.startsWith("net Normal NetworkCreated network blue_net (id 1,"));

            await().atMost(WAIT)
                    .until(() -> nodeSubnets("n1")
                            .equals("{\"blue_net\":[\"10.100.0.0/24\"],"
                                    + "\"default\":[\"10.244.0.0/24\"],\"green_net\":[\"10.100.0.0/24\"]}"));

            // deleting blue/net waits while a pod of blue is left (the finalizer), then lets blue/second in
            // (the lowest free id), and its subnet replaces blue_net's
            assertThat(get("blue", "net").getMetadata().getFinalizers()).containsExactly(NetworkController.FINALIZER);
            client.pods()
                    .inNamespace("blue")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("p")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("c")
                            .withImage("x")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
            client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                    .inNamespace("blue")
                    .withName("net")
                    .delete();
            await().atMost(WAIT)
                    .until(() -> events.contains("net Warning NetworkInUse deletion waits: network blue_net is in use"
                            + " by pods [blue/p]"));
            assertThat(get("blue", "net").getMetadata().getDeletionTimestamp()).isNotNull();
            assertThat(nodeSubnets("n1")).contains("blue_net");
            assertThat(created("blue", "second")).startsWith("False PrimaryNetworkConflict");
            client.pods().inNamespace("blue").withName("p").withGracePeriod(0).delete();
            await().atMost(WAIT).until(() -> get("blue", "net") == null);
            await().atMost(WAIT)
                    .until(() -> String.valueOf(created("blue", "second")).startsWith("True NetworkCreated"));
            assertThat(id("blue", "second")).isEqualTo("1");
            await().atMost(WAIT)
                    .until(() -> nodeSubnets("n1")
                            .equals("{\"blue_second\":[\"10.101.0.0/24\"],"
                                    + "\"default\":[\"10.244.0.0/24\"],\"green_net\":[\"10.100.0.0/24\"]}"));
        }
        // a restarted cluster manager keeps every id and subnet, and writes no new condition
        String subnets = nodeSubnets("n1");
        int eventsBefore = events.size();
        try (ClusterManager cm = ClusterManager.start(
                client,
                ClusterManagerConfig.defaults(),
                (o, w, r, m) -> events.add(o.getMetadata().getName() + " " + r))) {
            Clusters.node(client, "n2", "c2", "172.30.0.2", Map.of());
            await().atMost(WAIT)
                    .until(() -> String.valueOf(client.nodes()
                                    .withName("n2")
                                    .get()
                                    .getMetadata()
                                    .getAnnotations())
                            .contains("green_net"));
            await().atMost(WAIT).until(() -> cm.networks().idle());
            assertThat(cm.networks().accepted()).extracting(Network::name).containsExactly("blue_second", "green_net");
            assertThat(nodeSubnets("n1")).isEqualTo(subnets);
            assertThat(nodeSubnets("n2"))
                    .isEqualTo("{\"blue_second\":[\"10.101.1.0/24\"],"
                            + "\"default\":[\"10.244.1.0/24\"],\"green_net\":[\"10.100.1.0/24\"]}");
            assertThat(id("blue", "second")).isEqualTo("1");
            assertThat(id("green", "net")).isEqualTo("2");
            assertThat(events.size()).as("no condition changed: no Event").isEqualTo(eventsBefore);
        }
    }
}
