package io.kovn.controller.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.clustermanager.ClusterManager;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.network.NetworkController;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.NetworkConnectSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ClusterNetworkConnects in the cluster manager against a real kube-apiserver with kovn's CRDs: the tunnel key and link
 * subnet annotations, the Accepted condition and its Events, refusals, restart, deselection, the feature switched off.
 */
@Tag("real")
class NetworkConnectControllerTest {
    static final Duration WAIT = Duration.ofSeconds(20);
    static final ClusterManagerConfig ENABLED = ClusterManagerConfig.defaults().withConnectingNetworks(true);
    LocalCluster cluster;
    KubernetesClient client;
    final List<String> events = new CopyOnWriteArrayList<>();
    final EventSink sink =
            (o, w, r, m) -> events.add(o.getMetadata().getName() + " " + (w ? "Warning " : "Normal ") + r + " " + m);

    @BeforeEach
    void start() {
        cluster = SharedCluster.fresh();
        client = cluster.admin();
    }

    void namespace(String name, Map<String, String> labels) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(labels)
                        .endMetadata()
                        .build())
                .create();
    }

    void create(ResourceDefinitionContext kind, String namespace, String yaml) {
        GenericKubernetesResource r = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
        var resources = client.genericKubernetesResources(kind);
        (namespace == null
                        ? resources.resource(r)
                        : resources.inNamespace(namespace).resource(r))
                .create();
    }

    /** Blue and green (Layer3 UDNs, namespaces labelled tenant), red (a Layer2 CUDN labelled connect=yes). */
    void networks() {
        namespace("blue", Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "tenant", "blue"));
        namespace("green", Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "tenant", "green"));
        namespace("red", Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "team", "red"));
        for (String ns : List.of("blue", "green")) {
            create(KovnResources.USER_DEFINED_NETWORK, ns, """
                    apiVersion: k8s.ovn.org/v1
                    kind: UserDefinedNetwork
                    metadata: {name: net, namespace: %s}
                    spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: %s}]}}
                    """.formatted(
                            ns, ns.equals("blue") ? "10.100.0.0/16" : "10.101.0.0/16"));
        }
        create(KovnResources.CLUSTER_USER_DEFINED_NETWORK, null, """
                apiVersion: k8s.ovn.org/v1
                kind: ClusterUserDefinedNetwork
                metadata: {name: red, labels: {connect: "yes"}}
                spec:
                  namespaceSelector: {matchLabels: {team: red}}
                  network: {topology: Layer2, layer2: {role: Primary, subnets: [10.102.0.0/24]}}
                """);
    }

    void cnc(String name, String cidr, int networkPrefix) {
        create(KovnResources.CLUSTER_NETWORK_CONNECT, null, """
                apiVersion: k8s.ovn.org/v1
                kind: ClusterNetworkConnect
                metadata: {name: %s}
                spec:
                  networkSelectors:
                  - networkSelectionType: PrimaryUserDefinedNetworks
                    primaryUserDefinedNetworkSelector: {namespaceSelector: {matchExpressions: [{key: tenant, operator: Exists}]}}
                  - networkSelectionType: ClusterUserDefinedNetworks
                    clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {connect: "yes"}}}
                  connectSubnets: [{cidr: %s, networkPrefix: %d}]
                  connectivity: [PodNetwork]
                """.formatted(name, cidr, networkPrefix));
    }

    GenericKubernetesResource get(String name) {
        return client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .withName(name)
                .get();
    }

    /** {@code status reason: message} of Accepted, or null. */
    String accepted(String name) {
        GenericKubernetesResource r = get(name);
        if (r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) return null;
        if (!(status.get("conditions") instanceof List<?> conditions)) return null;
        for (Object o : conditions) {
            Map<?, ?> c = (Map<?, ?>) o;
            if (ConnectPlan.ACCEPTED.equals(c.get("type")))
                return c.get("status") + " " + c.get("reason") + ": " + c.get("message");
        }
        return null;
    }

    String idOf(ResourceDefinitionContext kind, String namespace, String name) {
        var resources = client.genericKubernetesResources(kind);
        GenericKubernetesResource r = namespace == null
                ? resources.withName(name).get()
                : resources.inNamespace(namespace).withName(name).get();
        return r == null || r.getMetadata().getAnnotations() == null
                ? null
                : r.getMetadata().getAnnotations().get(NetworkController.NETWORK_ID_ANNOTATION);
    }

    String annotation(String name, String key) {
        Map<String, String> a = get(name).getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    String subnets(String name) {
        return annotation(name, OvnAnnotations.NETWORK_CONNECT_SUBNET);
    }

    /** The IPv4 link block of each network key in the subnet annotation, sorted by key. */
    Map<String, String> blocks(String name) {
        Map<String, String> out = new TreeMap<>();
        NetworkConnectSubnets.parse(subnets(name))
                .byNetwork()
                .forEach((key, prefixes) -> prefixes.forEach(p -> out.put(key, p.toString())));
        return out;
    }

    static List<String> thirdOctets(Map<String, String> blocks) {
        return blocks.values().stream().map(v -> v.split("\\.")[2]).toList();
    }

    @Test
    void connectsSelectedNetworksRefusesWhatItMustAndKeepsAllocationsOverARestart() {
        networks();
        try (ClusterManager cm = ClusterManager.start(client, ENABLED, sink)) {
            // let the three be accepted first (the controller may still see them one by one: blocks follow the
            // order it sees them, so which network has which block is not asserted)
            await().atMost(WAIT)
                    .until(() -> idOf(KovnResources.USER_DEFINED_NETWORK, "blue", "net") != null
                            && idOf(KovnResources.USER_DEFINED_NETWORK, "green", "net") != null
                            && idOf(KovnResources.CLUSTER_USER_DEFINED_NETWORK, null, "red") != null);
            cnc("c1", "192.168.0.0/16", 24);
            cnc("reserved", "10.244.0.0/16", 24);
            await().atMost(WAIT).until(() -> String.valueOf(accepted("c1")).contains("3 networks"));
            assertThat(accepted("c1"))
                    .isEqualTo(
                            "True ResourceAllocationSucceeded: connects 3 networks: blue_net, green_net, cluster_udn_red");
            assertThat(annotation("c1", OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY))
                    .isEqualTo("16715779");
            assertThat(blocks("c1"))
                    .as("a /24 per Layer3 network, a /31 at the start of its own /24 for the Layer2 one")
                    .containsOnlyKeys("layer2_3", "layer3_1", "layer3_2")
                    .allSatisfy((k, v) -> assertThat(v).endsWith(k.startsWith("layer2_") ? ".0/31" : ".0/24"));
            Map<String, String> three = blocks("c1");
            assertThat(thirdOctets(three)).containsExactlyInAnyOrder("0", "1", "2");
            assertThat(events)
                    .contains(
                            "c1 Normal ResourceAllocationSucceeded connects 3 networks: blue_net, green_net, cluster_udn_red");
            await().atMost(WAIT).until(() -> accepted("reserved") != null);
            assertThat(accepted("reserved"))
                    .isEqualTo("False ResourceAllocationFailed: connectSubnets 10.244.0.0/16 overlaps"
                            + " the cluster network 10.244.0.0/16");
            assertThat(get("reserved").getMetadata().getAnnotations())
                    .as("nothing allocated")
                    .isNullOrEmpty();

            // a network over blue's subnet: still given a link, but the pair is named and not connected
            namespace("twin", Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "tenant", "twin"));
            create(KovnResources.USER_DEFINED_NETWORK, "twin", """
                    apiVersion: k8s.ovn.org/v1
                    kind: UserDefinedNetwork
                    metadata: {name: net, namespace: twin}
                    spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16}]}}
                    """);
            await().atMost(WAIT).until(() -> String.valueOf(accepted("c1")).startsWith("False"));
            assertThat(accepted("c1"))
                    .isEqualTo("False ResourceAllocationFailed: networks blue_net and twin_net overlap"
                            + " (10.100.0.0/16, 10.100.0.0/16): twin_net is connected to no network of this CNC");
            await().atMost(WAIT).until(() -> subnets("c1").contains("layer3_4"));
            Map<String, String> four = new TreeMap<>(three);
            four.put("layer3_4", "192.168.3.0/24");
            assertThat(blocks("c1")).as("the others keep their blocks").isEqualTo(four);
            assertThat(events)
                    .contains("c1 Warning ResourceAllocationFailed networks blue_net and twin_net overlap"
                            + " (10.100.0.0/16, 10.100.0.0/16): twin_net is connected to no network of this CNC");
        }
        // a restarted cluster manager keeps the key and every link, and writes no new condition
        String before = subnets("c1");
        int eventsBefore = events.size();
        try (ClusterManager cm = ClusterManager.start(client, ENABLED, sink)) {
            await().atMost(WAIT)
                    .until(() -> cm.connects().idle() && cm.networks().idle());
            assertThat(subnets("c1")).isEqualTo(before);
            assertThat(annotation("c1", OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY))
                    .isEqualTo("16715779");
            assertThat(events.size()).as("no condition changed: no Event").isEqualTo(eventsBefore);

            // relabelling the CUDN deselects it: its link goes, the others stay
            Map<String, String> kept = blocks("c1");
            kept.remove("layer2_3");
            client.genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                    .withName("red")
                    .edit(r -> {
                        r.getMetadata().setLabels(Map.of("connect", "no"));
                        return r;
                    });
            await().atMost(WAIT).until(() -> !subnets("c1").contains("layer2_3"));
            assertThat(blocks("c1")).isEqualTo(kept);
        }
    }

    @Test
    void withTheFeatureOffEveryCncIsToldSoAndGetsNoAnnotation() {
        networks();
        try (ClusterManager cm = ClusterManager.start(client, ClusterManagerConfig.defaults(), sink)) {
            cnc("c1", "192.168.0.0/16", 24);
            await().atMost(WAIT).until(() -> accepted("c1") != null);
            assertThat(accepted("c1"))
                    .isEqualTo("False FeatureDisabled: connecting networks is disabled (--enable-connecting-networks)");
            await().atMost(WAIT)
                    .until(() -> cm.connects().idle() && cm.networks().idle());
            assertThat(get("c1").getMetadata().getAnnotations()).isNullOrEmpty();
            assertThat(events)
                    .contains(
                            "c1 Warning FeatureDisabled connecting networks is disabled (--enable-connecting-networks)");
        }
    }
}
