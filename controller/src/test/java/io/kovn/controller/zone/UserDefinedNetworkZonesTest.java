package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A user-defined Layer3 network in two zones (real NB, SB and ovn-northd; the cluster manager and the zone controllers
 * against a real kube-apiserver): its topology appears in both zones named as the reference names it, ovn-trace crosses
 * zones inside it and finds no way to the default network, a restart writes nothing, and deleting it removes exactly
 * its rows.
 */
@Tag("real")
class UserDefinedNetworkZonesTest {
    static final List<String> NODES = List.of("node-a", "node-b");
    static final Duration CONVERGE = ZoneCluster.CONVERGE;
    static final String NET = "blue_net-1";
    static final String P = "blue_net.1_";

    ZoneCluster cluster;
    KubernetesClient client;
    Map<String, OvnDatabases> dbs;

    @AfterEach
    void stop() {
        if (cluster != null) cluster.close();
    }

    /** {@code name} (a route's {@code ip_prefix}) of every row of a table the network's controller owns, sorted. */
    String owned(String node, String table, String controller) {
        String column = table.equals("Logical_Router_Static_Route") ? "ip_prefix" : "name";
        return dbs.get(node)
                .nbctl(
                        "--bare",
                        "--columns=" + column,
                        "find",
                        table,
                        "external_ids:k8s.ovn.org/owner-controller=" + controller)
                .lines()
                .filter(l -> !l.isBlank())
                .sorted()
                .toList()
                .toString();
    }

    long defaultRows(String node) {
        long n = 0;
        for (String table : List.of(
                "Logical_Switch",
                "Logical_Switch_Port",
                "Logical_Router",
                "Logical_Router_Port",
                "Logical_Router_Static_Route")) {
            n += dbs.get(node)
                    .nbctl(
                            "--bare",
                            "--columns=_uuid",
                            "find",
                            table,
                            "external_ids:k8s.ovn.org/owner-controller=default-network-controller")
                    .lines()
                    .filter(l -> !l.isBlank())
                    .count();
        }
        return n;
    }

    String subnetOf(String node) {
        String all = Clusters.annotation(client, node, OvnAnnotations.NODE_SUBNETS);
        return all == null || !all.contains(NET)
                ? null
                : all.replaceAll(".*\"" + NET + "\":\\[\"([^\"]+)\"\\].*", "$1");
    }

    @Test
    void aLayer3NetworkSpansTheZonesStaysApartFromTheDefaultNetworkAndGoesAway() {
        cluster = new ZoneCluster(NODES);
        client = cluster.client;
        dbs = cluster.dbs;
        Map<String, ZoneController> zones = cluster.zones;
        await().atMost(CONVERGE)
                .until(() -> zones.values().stream().allMatch(z -> z.topology().reconciles() > 0 && z.idle()));
        long defaultA = defaultRows("node-a");

        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("blue")
                        .withLabels(Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, ""))
                        .endMetadata()
                        .build())
                .create();
        client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("blue")
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: net-1, namespace: blue}
                spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16}]}}
                """, GenericKubernetesResource.class))
                .create();
        String controller = NET + "-network-controller";
        await().atMost(CONVERGE)
                .until(() -> owned("node-a", "Logical_Switch", controller)
                                .equals("[" + P + "node-a, " + P + "transit_switch]")
                        && owned("node-b", "Logical_Switch_Port", controller).contains(P + "tstor-node-a"));
        assertThat(owned("node-a", "Logical_Router", controller)).isEqualTo("[" + P + "ovn_cluster_router]");
        assertThat(owned("node-a", "Logical_Switch_Port", controller))
                .isEqualTo("[" + P + "tstor-node-a, " + P + "tstor-node-b, k8s-" + P + "node-a, stor-" + P + "node-a]");
        assertThat(owned("node-a", "Logical_Router_Port", controller))
                .isEqualTo("[" + P + "rtots-node-a, rtos-" + P + "node-a]");
        assertThat(dbs.get("node-a")
                        .nbctl("get", "Logical_Switch", P + "transit_switch", "other_config:requested-tnl-key")
                        .strip())
                .isEqualTo("\"16711684\"");
        String a = subnetOf("node-a");
        String b = subnetOf("node-b");
        assertThat(List.of(a, b)).containsExactlyInAnyOrder("10.100.0.0/24", "10.100.1.0/24");
        assertThat(dbs.get("node-a").nbctl("lr-route-list", P + "ovn_cluster_router"))
                .contains(b);
        assertThat(defaultRows("node-a"))
                .as("the default network's rows are untouched")
                .isEqualTo(defaultA);

        // a packet from node-a's management port of the network crosses to node-b inside it ...
        String mgmtA = a.replace("0/24", "2");
        String mgmtB = b.replace("0/24", "2");
        String macA = dbs.get("node-a")
                .nbctl("get", "Logical_Switch_Port", "k8s-" + P + "node-a", "addresses")
                .replaceAll("[\\[\\]\"]", "")
                .split(" ")[0];
        String rtos = dbs.get("node-a")
                .nbctl("get", "Logical_Router_Port", "rtos-" + P + "node-a", "mac")
                .strip()
                .replace("\"", "");
        String flow = "inport == \"k8s-" + P + "node-a\" && eth.src == " + macA + " && eth.dst == " + rtos
                + " && ip4.src == " + mgmtA + " && ip4.dst == %s && ip.ttl == 64 && icmp4 && icmp4.type == 8";
        assertThat(trace("node-a", P + "node-a", flow.formatted(mgmtB)))
                .contains("output to \"" + P + "tstor-node-b\"");
        // ... and finds no way to the default network's addresses on the same node
        String defaultMgmtB = Clusters.annotation(client, "node-b", OvnAnnotations.NODE_SUBNETS)
                .replaceAll(".*\"default\":\\[\"([^\"]+)\"\\].*", "$1")
                .replace("0/24", "2");
        String toDefault = trace("node-a", P + "node-a", flow.formatted(defaultMgmtB));
        assertThat(toDefault)
                .doesNotContain("output to \"tstor-node-b\"")
                .doesNotContain("output to \"" + P + "tstor-node-b\"")
                .containsPattern("lr_in_ip_routing \\(.*\\): 1, priority 0, uuid \\w+\\n\\s+drop;"); // no route there

        // a Layer2 network beside it, over the same addresses: one switch in every zone, the transit
        // router holding the gateway address, which answers the management port
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("green")
                        .withLabels(Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, ""))
                        .endMetadata()
                        .build())
                .create();
        client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("green")
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: l2, namespace: green}
                spec: {topology: Layer2, layer2: {role: Primary, subnets: [10.100.0.0/24]}}
                """, GenericKubernetesResource.class))
                .create();
        String l2 = "green_l2-network-controller";
        await().atMost(CONVERGE)
                .until(() -> NODES.stream()
                        .allMatch(n -> owned(n, "Logical_Switch", l2).equals("[green_l2_ovn_layer2_switch]")));
        assertThat(owned("node-a", "Logical_Router", l2)).isEqualTo("[green_l2_transit_router]");
        assertThat(owned("node-a", "Logical_Switch_Port", l2))
                .isEqualTo("[k8s-green_l2_node-a, stotr-green_l2_ovn_layer2_switch]");
        assertThat(dbs.get("node-b")
                        .nbctl("get", "Logical_Switch", "green_l2_ovn_layer2_switch", "other_config:interconn-ts")
                        .strip())
                .isEqualTo("green_l2_ovn_layer2_switch");
        String l2Mac = dbs.get("node-a")
                .nbctl("get", "Logical_Switch_Port", "k8s-green_l2_node-a", "addresses")
                .replaceAll("[\\[\\]\"]", "")
                .split(" ")[0];
        String trMac = dbs.get("node-a")
                .nbctl("get", "Logical_Router_Port", "trtos-green_l2_ovn_layer2_switch", "mac")
                .strip()
                .replace("\"", "");
        String ping = trace(
                "node-a",
                "green_l2_ovn_layer2_switch",
                "inport == \"k8s-green_l2_node-a\" && eth.src == " + l2Mac + " && eth.dst == " + trMac
                        + " && ip4.src == 10.100.0.2 && ip4.dst == 10.100.0.1 && ip.ttl == 64 && icmp4 && icmp4.type == 8");
        assertThat(ping).contains("icmp4.type = 0").contains("output to \"k8s-green_l2_node-a\"");

        // a row deleted under kovn comes back (drift repair)
        dbs.get("node-a").nbctl("lsp-del", "k8s-" + P + "node-a");
        await().atMost(CONVERGE)
                .until(() -> owned("node-a", "Logical_Switch_Port", controller).contains("k8s-" + P + "node-a"));

        // a restarted zone writes nothing
        ZoneController fresh = cluster.restart("node-a");
        TrafficCounters nbc = fresh.databases().nbCounters();
        await().atMost(CONVERGE)
                .pollDelay(Duration.ofMillis(500))
                .until(() -> fresh.topology().reconciles() > 0 && fresh.idle());
        assertThat(nbc.writeOperations()).isZero();

        // deleting the network removes its rows in every zone (and its node subnets), nothing else
        client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("blue")
                .withName("net-1")
                .delete();
        client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("green")
                .withName("l2")
                .delete();
        await().atMost(CONVERGE)
                .until(() -> NODES.stream()
                        .allMatch(n -> List.of(
                                        "Logical_Switch",
                                        "Logical_Switch_Port",
                                        "Logical_Router",
                                        "Logical_Router_Port",
                                        "Logical_Router_Static_Route")
                                .stream()
                                .allMatch(t -> owned(n, t, controller).equals("[]")
                                        && owned(n, t, l2).equals("[]"))));
        await().atMost(CONVERGE).until(() -> subnetOf("node-a") == null && subnetOf("node-b") == null);
        assertThat(defaultRows("node-a")).isEqualTo(defaultA);
    }

    String trace(String node, String datapath, String flow) {
        return cluster.trace(node, datapath, flow);
    }
}
