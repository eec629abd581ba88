package io.kovn.controller.zone;

import static io.kovn.controller.testing.OvnTables.nb;
import static io.kovn.controller.testing.OvnTables.sb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.clustermanager.ClusterManager;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Three nodes, each with its own zone (real NB, SB and ovn-northd), the cluster manager and three zone controllers
 * against a real control plane ({@link SharedCluster}): the zones converge to exactly the expected rows, ovn-trace
 * crosses zones, changes converge, restarts write nothing, foreign rows survive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class ThreeZonesTest {
    static final List<String> NODES = List.of("node-a", "node-b", "node-c");
    static final Duration CONVERGE = Duration.ofSeconds(20);

    /** The shared cluster's admin client: not closed here. */
    KubernetesClient client;

    ClusterManager clusterManager;
    final Map<String, OvnDatabases> dbs = new LinkedHashMap<>();
    final Map<String, ZoneController> zones = new LinkedHashMap<>();

    @BeforeAll
    void start() {
        client = SharedCluster.fresh().admin();
        clusterManager = ClusterManager.start(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> {});
        for (int i = 0; i < NODES.size(); i++) {
            String n = NODES.get(i);
            Clusters.node(client, n, "chassis-" + n, "172.31.0." + (i + 1), Map.of());
            dbs.put(n, OvnDatabases.start(OvnDatabases.Config.withNorthd()));
        }
        await().atMost(CONVERGE)
                .until(() ->
                        NODES.stream().allMatch(n -> Clusters.annotation(client, n, OvnAnnotations.NODE_ID) != null));
        Clusters.pod(client, "default", "web-a1", "node-a", false);
        Clusters.pod(client, "default", "web-a2", "node-a", false);
        Clusters.pod(client, "kube-system", "host-a", "node-a", true);
        Clusters.pod(client, "default", "web-b1", "node-b", false);
        Clusters.pod(client, "default", "web-c1", "node-c", false);
        for (String n : NODES) {
            zones.put(n, startZone(n));
        }
    }

    final List<String> events = new CopyOnWriteArrayList<>();
    final TrustZoneMetrics metrics = new TrustZoneMetrics(new PrometheusRegistry());

    ZoneController startZone(String n) {
        OvnDatabases d = dbs.get(n);
        return ZoneController.start(
                ZoneControllerConfig.of(
                        n,
                        d.nb().unixEndpoint(),
                        d.sb().unixEndpoint(),
                        (object, warning, reason, message) ->
                                events.add(object.getMetadata().getName() + " " + reason + " " + message),
                        metrics),
                client);
    }

    @AfterAll
    void stop() {
        zones.values().forEach(ZoneController::close);
        dbs.values().forEach(OvnDatabases::close);
        if (clusterManager != null) {
            clusterManager.close();
        }
    }

    // ---- expected rows, from the annotations the cluster manager and zone controllers wrote ----

    record NodeFacts(String name, int id, IpPrefix subnet, IpPrefix transit, String chassis, String encap) {}

    NodeFacts facts(String n) {
        return new NodeFacts(
                n,
                NodeId.parse(Clusters.annotation(client, n, OvnAnnotations.NODE_ID))
                        .value(),
                NodeSubnets.parse(Clusters.annotation(client, n, OvnAnnotations.NODE_SUBNETS))
                        .defaultNetwork()
                        .getFirst(),
                NodeTransitSwitchPortIfaddr.parse(
                                Clusters.annotation(client, n, OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR))
                        .ipv4()
                        .orElseThrow(),
                "chassis-" + n,
                Clusters.annotation(client, n, OvnAnnotations.NODE_ENCAP_IPS).replaceAll("[\\[\\]\"]", ""));
    }

    PodNetwork podNetwork(String ns, String pod) {
        return PodNetworks.parse(Clusters.podNetworks(client, ns, pod))
                .defaultNetwork()
                .orElseThrow();
    }

    static String mac(IpPrefix p) {
        return MacAddresses.fromIp(p.address());
    }

    List<String> expectedPorts(String zone, List<String> remotes, List<String[]> pods) {
        NodeFacts local = facts(zone);
        List<String> out = new ArrayList<>();
        out.add("name=stor-" + zone + " type=router addresses=router options={router-port=rtos-" + zone + "}");
        IpPrefix mgmt = new IpPrefix(local.subnet().addressAt(2), local.subnet().length());
        out.add("name=k8s-" + zone + " type= addresses=" + mac(mgmt) + " " + IpLiterals.format(mgmt.address())
                + " options={}");
        out.add("name=tstor-" + zone + " type=router addresses=router options={requested-tnl-key=" + local.id()
                + ", router-port=rtots-" + zone + "}");
        for (String r : remotes) {
            NodeFacts f = facts(r);
            out.add("name=tstor-" + r + " type=remote addresses=" + mac(f.transit()) + " " + f.transit() + " options={"
                    + "requested-chassis=" + f.chassis() + ", requested-tnl-key=" + f.id() + "}");
        }
        for (String[] p : pods) {
            PodNetwork n = podNetwork(p[0], p[1]);
            String addr = n.macAddress() + " " + IpLiterals.format(n.ips().getFirst());
            out.add("name=" + p[0] + "_" + p[1] + " type= addresses=" + addr + " options={}");
        }
        out.sort(null);
        return out;
    }

    List<String> expectedRouterPorts(String zone) {
        NodeFacts f = facts(zone);
        IpPrefix gw = new IpPrefix(f.subnet().addressAt(1), f.subnet().length());
        List<String> out = new ArrayList<>(List.of(
                "name=rtos-" + zone + " mac=" + mac(gw) + " networks=" + gw,
                "name=rtots-" + zone + " mac=" + mac(f.transit()) + " networks=" + f.transit()));
        out.sort(null);
        return out;
    }

    List<String> expectedRoutes(String zone, List<String> remotes) {
        List<String> out = new ArrayList<>();
        NodeFacts local = facts(zone);
        // the local node IP goes to the management port (the subnet's second address)
        out.add("ip_prefix=" + local.encap() + "/32 nexthop="
                + IpLiterals.format(local.subnet().addressAt(2)));
        for (String r : remotes) {
            NodeFacts f = facts(r);
            out.add("ip_prefix=" + f.subnet() + " nexthop="
                    + IpLiterals.format(f.transit().address()) + " external_ids:ic-node=" + r);
            out.add("ip_prefix=" + f.encap() + "/32 nexthop="
                    + IpLiterals.format(f.transit().address()) + " external_ids:ic-node=" + r);
            // its gateway router's join address (allocated by the cluster manager), back over transit
            String join = Clusters.annotation(client, r, OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR);
            if (join != null) {
                out.add("ip_prefix="
                        + IpLiterals.format(NodeGatewayRouterLrpIfaddr.parse(join)
                                .ipv4()
                                .orElseThrow()
                                .address()) + "/32 nexthop="
                        + IpLiterals.format(f.transit().address())
                        + " external_ids:ic-node=" + r);
            }
        }
        out.sort(null);
        return out;
    }

    List<String> expectedChassis(List<String> remotes) {
        List<String> out = new ArrayList<>();
        for (String r : remotes) {
            out.add("name=chassis-" + r + " hostname=" + r + " other_config={is-remote=true}");
        }
        out.sort(null);
        return out;
    }

    List<String> routes(OvnDatabases d) {
        return nb(d, "Logical_Router_Static_Route", "ip_prefix", "nexthop", "external_ids").stream()
                .map(l -> l.contains("ic-node=")
                        ? l.replaceAll(" external_ids=\\{.*ic-node=([^,}]*).*", " external_ids:ic-node=$1")
                        : l.replaceAll(" external_ids=\\{.*", ""))
                .sorted()
                .toList();
    }

    void assertZone(String zone, List<String> remotes, List<String[]> pods) {
        OvnDatabases d = dbs.get(zone);
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(nb(d, "Logical_Router", "name")).containsExactly("name=ovn_cluster_router");
            assertThat(nb(d, "Logical_Switch", "name")).containsExactly("name=" + zone, "name=transit_switch");
            assertThat(nb(d, "Logical_Switch_Port", "name", "type", "addresses", "options"))
                    .containsExactlyElementsOf(expectedPorts(zone, remotes, pods));
            assertThat(nb(d, "Logical_Router_Port", "name", "mac", "networks"))
                    .containsExactlyElementsOf(expectedRouterPorts(zone));
            assertThat(routes(d)).containsExactlyElementsOf(expectedRoutes(zone, remotes));
            assertThat(sb(d, "Chassis", "name", "hostname", "other_config").stream()
                            .filter(l -> l.contains("is-remote=true"))
                            .toList())
                    .containsExactlyElementsOf(expectedChassis(remotes));
            List<String> encaps = new ArrayList<>();
            for (String r : remotes) {
                encaps.add(
                        "chassis_name=chassis-" + r + " ip=" + facts(r).encap() + " type=geneve options={csum=true}");
            }
            encaps.sort(null);
            assertThat(sb(d, "Encap", "chassis_name", "ip", "type", "options")).containsExactlyElementsOf(encaps);
        });
    }

    @Test
    @Order(1)
    void everyZoneHoldsExactlyItsTopology() {
        assertZone("node-a", List.of("node-b", "node-c"), List.of(new String[] {"default", "web-a1"}, new String[] {
            "default", "web-a2"
        }));
        assertZone("node-b", List.of("node-a", "node-c"), List.<String[]>of(new String[] {"default", "web-b1"}));
        assertZone("node-c", List.of("node-a", "node-b"), List.<String[]>of(new String[] {"default", "web-c1"}));
        assertThat(nb(dbs.get("node-a"), "Logical_Switch", "name", "other_config"))
                .contains("name=transit_switch other_config={interconn-ts=transit_switch, requested-tnl-key=16711683}");
        assertThat(Clusters.podNetworks(client, "kube-system", "host-a")).isNull();
    }

    @Test
    @Order(2)
    void podAddressesComeFromTheNodeSubnetInTheReferenceFormat() {
        NodeFacts a = facts("node-a");
        PodNetwork p1 = podNetwork("default", "web-a1");
        PodNetwork p2 = podNetwork("default", "web-a2");
        assertThat(List.of(p1.ipAddresses().getFirst(), p2.ipAddresses().getFirst()))
                .allSatisfy(ip -> assertThat(a.subnet().contains(ip.address())).isTrue())
                .doesNotHaveDuplicates()
                .noneMatch(ip -> ip.address().equals(a.subnet().addressAt(0))
                        || ip.address().equals(a.subnet().addressAt(1)));
        assertThat(p1.gatewayIps()).containsExactly(a.subnet().addressAt(1));
        assertThat(Clusters.podNetworks(client, "default", "web-a1"))
                .isEqualTo(PodNetworks.ofDefault(p1).format());
        assertThat(p1.macAddress()).isEqualTo(mac(p1.ipAddresses().getFirst()));
    }

    @Test
    @Order(3)
    void ovnTraceCrossesFromPodOnAToPodOnB() {
        PodNetwork src = podNetwork("default", "web-a1");
        PodNetwork dst = podNetwork("default", "web-b1");
        NodeFacts a = facts("node-a");
        NodeFacts b = facts("node-b");
        String rtosMac = mac(new IpPrefix(a.subnet().addressAt(1), 24));
        String flow = "inport==\"default_web-a1\" && eth.src==" + src.macAddress() + " && eth.dst==" + rtosMac
                + " && ip4.src==" + IpLiterals.format(src.ips().getFirst()) + " && ip4.dst=="
                + IpLiterals.format(dst.ips().getFirst())
                + " && ip.ttl==64 && icmp4.type==8";
        await().atMost(CONVERGE).untilAsserted(() -> {
            String out = trace(dbs.get("node-a"), "node-a", flow);
            assertThat(out)
                    .contains("ingress(dp=\"transit_switch\", inport=\"tstor-node-a\")")
                    .contains("/* output to \"tstor-node-b\", type \"remote\" */");
            // ... and in zone A's SB that remote port is bound to node B's chassis: the tunnel's far end.
            OvnDatabases da = dbs.get("node-a");
            String chassis = da.sbctl(
                            "--bare", "--columns=chassis", "find", "Port_Binding", "logical_port=tstor-node-b")
                    .strip();
            assertThat(da.sbctl("get", "Chassis", chassis, "name").strip()).isEqualTo("chassis-node-b");
        });
        String toB = "inport==\"tstor-node-a\" && eth.src==" + mac(a.transit()) + " && eth.dst==" + mac(b.transit())
                + " && ip4.src==" + IpLiterals.format(src.ips().getFirst()) + " && ip4.dst=="
                + IpLiterals.format(dst.ips().getFirst())
                + " && ip.ttl==63 && icmp4.type==8";
        await().atMost(CONVERGE).untilAsserted(() -> {
            String out = trace(dbs.get("node-b"), "transit_switch", toB);
            assertThat(out)
                    .contains("ingress(dp=\"ovn_cluster_router\", inport=\"rtots-node-b\")")
                    .contains("/* output to \"default_web-b1\", type \"\" */");
        });
    }

    static String trace(OvnDatabases d, String datapath, String flow) {
        return Tools.run(
                List.of(d.runtime().bin("ovn-trace").toString(), "--db=" + d.sb().unixEndpoint(), datapath, flow));
    }

    @Test
    @Order(4)
    void restartWithNothingChangedWritesNothing() {
        ZoneController old = zones.get("node-a");
        old.close();
        ZoneController fresh = startZone("node-a");
        zones.put("node-a", fresh);
        TrafficCounters nbc = fresh.databases().nbCounters();
        TrafficCounters sbc = fresh.databases().sbCounters();
        // the topology key and the startup sweep's pod keys (two pods on node-a, queued by start, so
        // done once idle; taken together they are one reconcile pass) all ran
        await().atMost(CONVERGE)
                .until(() -> fresh.topology().reconciles() > 0
                        && fresh.podPorts().times().count() >= 1
                        && fresh.idle());
        assertThat(nbc.writeOperations()).isZero();
        assertThat(sbc.writeOperations()).isZero();
        assertThat(nbc.transactions()).isZero();
    }

    @Test
    @Order(5)
    void addingANodeAndDeletingOrFinishingPodsConvergesEveryZone() {
        dbs.put("node-d", OvnDatabases.start(OvnDatabases.Config.withNorthd()));
        Clusters.node(client, "node-d", "chassis-node-d", "172.31.0.4", Map.of());
        await().atMost(CONVERGE).until(() -> Clusters.annotation(client, "node-d", OvnAnnotations.NODE_ID) != null);
        zones.put("node-d", startZone("node-d"));
        String freed = IpLiterals.format(podNetwork("default", "web-a2").ips().getFirst());
        // at once: no kubelet confirms a graceful delete
        client.pods()
                .inNamespace("default")
                .withName("web-a2")
                .withGracePeriod(0)
                .delete();
        // A finished pod keeps its object but loses its address and port.
        client.pods().inNamespace("default").withName("web-c1").editStatus(p -> {
            p.getStatus().setPhase("Succeeded");
            return p;
        });
        assertZone(
                "node-a", List.of("node-b", "node-c", "node-d"), List.<String[]>of(new String[] {"default", "web-a1"}));
        assertZone(
                "node-b", List.of("node-a", "node-c", "node-d"), List.<String[]>of(new String[] {"default", "web-b1"}));
        assertZone("node-c", List.of("node-a", "node-b", "node-d"), List.of());
        assertZone("node-d", List.of("node-a", "node-b", "node-c"), List.of());
        // The freed address goes to the next pod.
        Clusters.pod(client, "default", "web-a3", "node-a", false);
        await().atMost(CONVERGE).until(() -> Clusters.podNetworks(client, "default", "web-a3") != null);
        assertThat(IpLiterals.format(podNetwork("default", "web-a3").ips().getFirst()))
                .isEqualTo(freed);
        assertZone(
                "node-a",
                List.of("node-b", "node-c", "node-d"),
                List.of(new String[] {"default", "web-a1"}, new String[] {"default", "web-a3"}));
    }

    @Test
    @Order(6)
    void foreignRowsAreNeverTouchedAndStaleKovnRowsAreRemovedAtStart() {
        OvnDatabases a = dbs.get("node-a");
        a.nbctl("ls-add", "someone-elses-switch");
        a.nbctl("lsp-add", "someone-elses-switch", "someone-elses-port");
        a.nbctl("lr-route-add", "ovn_cluster_router", "192.0.2.0/24", "100.88.0.99");
        a.sbctl("chassis-add", "foreign-chassis", "geneve", "192.0.2.9");
        zones.remove("node-a").close();
        // A crash left rows of a pod and a node that no longer exist.
        a.nbctl(
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
        a.sbctl(
                "chassis-add",
                "chassis-gone",
                "geneve",
                "192.0.2.10",
                "--",
                "set",
                "Chassis",
                "chassis-gone",
                "external_ids:k8s.ovn.org/owner-controller=default-network-controller",
                "external_ids:k8s.ovn.org/owner-type=RemoteZone",
                "external_ids:k8s.ovn.org/name=node-gone",
                "external_ids:k8s.ovn.org/id=default-network-controller:RemoteZone:node-gone:chassis",
                "other_config:is-remote=true");
        zones.put("node-a", startZone("node-a"));
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(nb(a, "Logical_Switch_Port", "name"))
                    .doesNotContain("name=default_ghost")
                    .contains("name=someone-elses-port");
            assertThat(sb(a, "Chassis", "name"))
                    .doesNotContain("name=chassis-gone")
                    .contains("name=foreign-chassis");
            assertThat(sb(a, "Encap", "ip")).doesNotContain("ip=192.0.2.10").contains("ip=192.0.2.9");
        });
        assertThat(nb(a, "Logical_Switch", "name")).contains("name=someone-elses-switch");
        assertThat(nb(a, "Logical_Router_Static_Route", "ip_prefix")).contains("ip_prefix=192.0.2.0/24");
        a.nbctl("ls-del", "someone-elses-switch");
        a.nbctl("lr-route-del", "ovn_cluster_router", "192.0.2.0/24");
        a.sbctl("chassis-del", "foreign-chassis");
    }

    @Test
    @Order(7)
    void trustZonesProgramOnlyRemotesThatShareAZone() {
        // a: tz1, b: none, c: tz1+tz2, d: tz2
        Clusters.annotateNode(client, "node-a", OvnAnnotations.TRUST_ZONES, "{\"__default\":[\"tz1\"]}");
        Clusters.annotateNode(client, "node-c", OvnAnnotations.TRUST_ZONES, "{\"__default\":[\"tz1\",\"tz2\"]}");
        Clusters.annotateNode(
                client, "node-d", OvnAnnotations.TRUST_ZONES, "{\"chassis-node-d\":[\"tz2\"],\"__default\":[\"tz9\"]}");
        assertZone("node-a", List.of("node-c"), List.of(new String[] {"default", "web-a1"}, new String[] {
            "default", "web-a3"
        }));
        assertZone("node-b", List.of(), List.<String[]>of(new String[] {"default", "web-b1"}));
        assertZone("node-c", List.of("node-a", "node-d"), List.of());
        assertZone("node-d", List.of("node-c"), List.of());
        assertThat(metrics.value("node-a", "programmed")).isEqualTo(1);
        assertThat(metrics.value("node-a", "skipped")).isEqualTo(2);

        // Runtime change on one side: b joins tz2 -> connects to c and d, still not to a.
        Clusters.annotateNode(client, "node-b", OvnAnnotations.TRUST_ZONES, "{\"__default\":[\"tz2\"]}");
        assertZone("node-b", List.of("node-c", "node-d"), List.<String[]>of(new String[] {"default", "web-b1"}));
        assertZone("node-d", List.of("node-b", "node-c"), List.of());

        // Fail closed: a malformed annotation isolates node c everywhere, with an Event naming it and the error.
        Clusters.annotateNode(client, "node-c", OvnAnnotations.TRUST_ZONES, "{\"__default\":\"tz1\"}");
        assertZone(
                "node-a", List.of(), List.of(new String[] {"default", "web-a1"}, new String[] {"default", "web-a3"}));
        assertZone("node-c", List.of(), List.of());
        assertZone("node-d", List.of("node-b"), List.of());
        assertThat(events)
                .anyMatch(e -> e.startsWith("node-c TrustZonesInvalid node node-c is isolated from all other nodes: "
                        + "k8s.ovn.org/trust-zones: key \"__default\" must map to a list of zone names, got a string"));

        // Removing every annotation connects everyone again (all zone-less).
        for (String n : List.of("node-a", "node-b", "node-c", "node-d")) {
            Clusters.annotateNode(client, n, OvnAnnotations.TRUST_ZONES, null);
        }
        assertZone(
                "node-a",
                List.of("node-b", "node-c", "node-d"),
                List.of(new String[] {"default", "web-a1"}, new String[] {"default", "web-a3"}));
        assertZone("node-c", List.of("node-a", "node-b", "node-d"), List.of());
    }

    @Test
    @Order(8)
    void aNodeWithMalformedAnnotationsIsSkippedWithAnEventAndRetriedWhenFixed() {
        String good = Clusters.annotation(client, "node-d", OvnAnnotations.NODE_ENCAP_IPS);
        Clusters.annotateNode(client, "node-d", OvnAnnotations.NODE_ENCAP_IPS, "[\"not-an-ip\"]");
        assertZone("node-a", List.of("node-b", "node-c"), List.of(new String[] {"default", "web-a1"}, new String[] {
            "default", "web-a3"
        }));
        assertThat(events)
                .anyMatch(e -> e.startsWith("node-d NodeAnnotationInvalid zone node-a skips node node-d: "
                        + "k8s.ovn.org/node-encap-ips: value[0]: not an IP address"));
        Clusters.annotateNode(client, "node-d", OvnAnnotations.NODE_ENCAP_IPS, good);
        assertZone(
                "node-a",
                List.of("node-b", "node-c", "node-d"),
                List.of(new String[] {"default", "web-a1"}, new String[] {"default", "web-a3"}));
    }
}
