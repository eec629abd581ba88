package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.NetworkController;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.topology.ConnectTopology;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A ClusterNetworkConnect in two zones (real NB, SB and ovn-northd; the cluster manager and the zone controllers
 * against a real kube-apiserver): Layer3 network A and Layer2 network C connected, B left apart. Each zone gets the
 * connect router, the port pairs at the reference's addresses, the reroute policies and routes; ovn-trace follows a
 * packet from A to C here, from C to A's pods on the other node, and finds no way from A to B; a restart writes
 * nothing; deleting the CNC removes every row it made and leaves the networks' routers as they were.
 */
@Tag("real")
class NetworkConnectZonesTest {
    static final List<String> NODES = List.of("node-a", "node-b");
    static final Duration CONVERGE = ZoneCluster.CONVERGE;
    static final String CONTROLLER = ConnectTopology.CONTROLLER;

    ZoneCluster cluster;
    KubernetesClient client;
    Map<String, OvnDatabases> dbs;

    @AfterEach
    void stop() {
        if (cluster != null) cluster.close();
    }

    String nbctl(String node, String... args) {
        return dbs.get(node).nbctl(args).strip();
    }

    /** Names (a route's {@code ip_prefix}, a policy's match) of the rows of a table the CNC controller owns, sorted. */
    String owned(String node, String table) {
        String column = switch (table) {
            case "Logical_Router_Static_Route" -> "ip_prefix";
            case "Logical_Router_Policy" -> "match";
            default -> "name";
        };
        return dbs.get(node)
                .nbctl(
                        "--bare",
                        "--columns=" + column,
                        "find",
                        table,
                        "external_ids:k8s.ovn.org/owner-controller=" + CONTROLLER)
                .lines()
                .filter(l -> !l.isBlank())
                .sorted()
                .toList()
                .toString();
    }

    void udn(String ns, String name, String spec) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(ns)
                        .withLabels(Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, ""))
                        .endMetadata()
                        .build())
                .create();
        client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(ns)
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: %s, namespace: %s}
                spec: %s
                """.formatted(name, ns, spec), GenericKubernetesResource.class))
                .create();
    }

    int networkId(String ns, String name) {
        String id = client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace(ns)
                .withName(name)
                .get()
                .getMetadata()
                .getAnnotations()
                .get(NetworkController.NETWORK_ID_ANNOTATION);
        return Integer.parseInt(id);
    }

    String mac(String node, String table, String port) {
        String column = table.equals("Logical_Switch_Port") ? "addresses" : "mac";
        return nbctl(node, "get", table, port, column)
                .replaceAll("[\\[\\]\"]", "")
                .split(" ")[0];
    }

    @Test
    void connectedNetworksReachEachOtherAcrossZonesAndNothingElse() {
        cluster = new ZoneCluster(NODES);
        client = cluster.client;
        dbs = cluster.dbs;
        await().atMost(CONVERGE)
                .until(() -> cluster.zones.values().stream()
                        .allMatch(z -> z.topology().reconciles() > 0 && z.idle()));
        udn("a", "net", "{topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16}]}}");
        udn("b", "net", "{topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.101.0.0/16}]}}");
        udn("c", "net", "{topology: Layer2, layer2: {role: Primary, subnets: [10.200.0.0/24]}}");
        await().atMost(CONVERGE)
                .until(() -> NODES.stream()
                                .allMatch(n -> nbctl(n, "--bare", "--columns=name", "list", "Logical_Router")
                                                .contains("a_net_ovn_cluster_router")
                                        && nbctl(n, "--bare", "--columns=name", "list", "Logical_Router")
                                                .contains("c_net_transit_router"))
                        && cluster.zones.values().stream().allMatch(ZoneController::idle));
        String routerPortsBefore =
                nbctl("node-a", "--bare", "--columns=ports", "list", "Logical_Router", "a_net_ovn_cluster_router");
        int a = networkId("a", "net");
        int c = networkId("c", "net");
        int nodeA = Integer.parseInt(Clusters.annotation(client, "node-a", OvnAnnotations.NODE_ID));

        client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: ClusterNetworkConnect
                metadata: {name: cnc-1}
                spec:
                  networkSelectors:
                  - networkSelectionType: PrimaryUserDefinedNetworks
                    primaryUserDefinedNetworkSelector: {namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [a, c]}]}}
                  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]
                  connectivity: [PodNetwork]
                """, GenericKubernetesResource.class))
                .create();
        // the cluster manager's allocation: A's block first, C's /31 from the next block
        await().atMost(CONVERGE)
                .until(() -> ("{\"layer2_" + c + "\":{\"ipv4\":\"192.168.1.0/31\"},\"layer3_" + a
                                + "\":{\"ipv4\":\"192.168.0.0/24\"}}")
                        .equals(client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                                .withName("cnc-1")
                                .get()
                                .getMetadata()
                                .getAnnotations()
                                .get(OvnAnnotations.NETWORK_CONNECT_SUBNET)));

        String crtorA = "crtor-cnc-1_a_net_node-a";
        await().atMost(CONVERGE)
                .until(() -> owned("node-a", "Logical_Router").equals("[connect_router_cnc-1]")
                        && owned("node-b", "Logical_Router_Port").contains("crtor-cnc-1_a_net_node-b"));
        assertThat(nbctl("node-a", "get", "Logical_Router", "connect_router_cnc-1", "options:requested-tnl-key"))
                .isEqualTo("\"16715779\"");
        assertThat(owned("node-a", "Logical_Router_Port"))
                .isEqualTo("[" + crtorA + ", crtor-cnc-1_c_net, rtocr-a_net_node-a_cnc-1, rtocr-c_net_cnc-1]");
        // Layer3: the node's /31 at block base + 2 x node id, the even address on the connect router
        String even = "192.168.0." + (2 * nodeA);
        String odd = "192.168.0." + (2 * nodeA + 1);
        assertThat(nbctl("node-a", "get", "Logical_Router_Port", crtorA, "networks"))
                .isEqualTo("[\"" + even + "/31\"]");
        assertThat(nbctl("node-a", "get", "Logical_Router_Port", "rtocr-a_net_node-a_cnc-1", "networks"))
                .isEqualTo("[\"" + odd + "/31\"]");
        // the reference's port key: block index 0 x 256 + node id + 1; Layer2: block 1 x 256 + /31 index 0 + 1
        assertThat(nbctl("node-a", "get", "Logical_Router_Port", crtorA, "options:requested-tnl-key"))
                .isEqualTo("\"" + (nodeA + 1) + "\"");
        assertThat(nbctl("node-a", "get", "Logical_Router_Port", "crtor-cnc-1_c_net", "options:requested-tnl-key"))
                .isEqualTo("\"257\"");
        assertThat(owned("node-a", "Logical_Router_Policy"))
                .isEqualTo("[inport == \"rtos-a_net_node-a\" && ip4.dst == 10.200.0.0/24, "
                        + "inport == \"trtos-c_net_ovn_layer2_switch\" && ip4.dst == 10.100.0.0/16]");
        assertThat(nbctl("node-a", "lr-policy-list", "a_net_ovn_cluster_router"))
                .contains("9001")
                .contains("reroute")
                .contains(even);
        assertThat(nbctl("node-a", "lr-route-list", "connect_router_cnc-1"))
                .contains("10.100.0.0/16")
                .contains(odd)
                .contains("10.200.0.0/24")
                .contains("192.168.1.1");

        // A (node-a) -> C: through the connect router to C's switch
        String subnetA = Clusters.annotation(client, "node-a", OvnAnnotations.NODE_SUBNETS)
                .replaceAll(".*\"a_net\":\\[\"([^\"]+)\"\\].*", "$1");
        String subnetB = Clusters.annotation(client, "node-b", OvnAnnotations.NODE_SUBNETS)
                .replaceAll(".*\"a_net\":\\[\"([^\"]+)\"\\].*", "$1");
        String mgmtA = subnetA.replace("0/24", "2");
        String toC = cluster.trace(
                "node-a",
                "a_net_node-a",
                "inport == \"k8s-a_net_node-a\" && eth.src == "
                        + mac("node-a", "Logical_Switch_Port", "k8s-a_net_node-a")
                        + " && eth.dst == " + mac("node-a", "Logical_Router_Port", "rtos-a_net_node-a")
                        + " && ip4.src == " + mgmtA
                        + " && ip4.dst == 10.200.0.2 && ip.ttl == 64 && icmp4 && icmp4.type == 8");
        assertThat(toC).contains("connect_router_cnc-1").contains("output to \"k8s-c_net_node-a\"");
        // C (node-a) -> A's pods on node-b: on A's own transit switch after the connect router
        String toAOnB = cluster.trace(
                "node-a",
                "c_net_ovn_layer2_switch",
                "inport == \"k8s-c_net_node-a\" && eth.src == "
                        + mac("node-a", "Logical_Switch_Port", "k8s-c_net_node-a") + " && eth.dst == "
                        + mac("node-a", "Logical_Router_Port", "trtos-c_net_ovn_layer2_switch")
                        + " && ip4.src == 10.200.0.2 && ip4.dst == "
                        + subnetB.replace("0/24", "5") + " && ip.ttl == 64 && icmp4 && icmp4.type == 8");
        assertThat(toAOnB).contains("connect_router_cnc-1").contains("output to \"a_net_tstor-node-b\"");
        // A -> B: not connected, no way through the connect router
        String toB = cluster.trace(
                "node-a",
                "a_net_node-a",
                "inport == \"k8s-a_net_node-a\" && eth.src == "
                        + mac("node-a", "Logical_Switch_Port", "k8s-a_net_node-a")
                        + " && eth.dst == " + mac("node-a", "Logical_Router_Port", "rtos-a_net_node-a")
                        + " && ip4.src == " + mgmtA
                        + " && ip4.dst == 10.101.0.2 && ip.ttl == 64 && icmp4 && icmp4.type == 8");
        assertThat(toB).doesNotContain("connect_router_cnc-1").doesNotContain("output to \"k8s-b_net_node-a\"");

        // a restarted zone writes nothing
        ZoneController fresh = cluster.restart("node-a");
        TrafficCounters nbc = fresh.databases().nbCounters();
        await().atMost(CONVERGE)
                .pollDelay(Duration.ofMillis(500))
                .until(() -> fresh.topology().reconciles() > 0 && fresh.idle());
        assertThat(nbc.writeOperations()).isZero();

        // a policy deleted under kovn comes back
        nbctl(
                "node-a",
                "lr-policy-del",
                "a_net_ovn_cluster_router",
                "9001",
                "inport == \"rtos-a_net_node-a\" && ip4.dst == 10.200.0.0/24");
        await().atMost(CONVERGE)
                .until(() -> owned("node-a", "Logical_Router_Policy").contains("rtos-a_net_node-a"));

        // deleting the CNC removes every row it made, in every zone
        client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .withName("cnc-1")
                .delete();
        await().atMost(CONVERGE)
                .until(() -> NODES.stream()
                        .allMatch(n -> List.of(
                                        "Logical_Router",
                                        "Logical_Router_Port",
                                        "Logical_Router_Static_Route",
                                        "Logical_Router_Policy")
                                .stream()
                                .allMatch(t -> owned(n, t).equals("[]"))));
        assertThat(nbctl("node-a", "--bare", "--columns=ports", "list", "Logical_Router", "a_net_ovn_cluster_router"))
                .isEqualTo(routerPortsBefore);
        assertThat(nbctl("node-a", "lr-policy-list", "a_net_ovn_cluster_router"))
                .doesNotContain("9001");
    }
}
