package io.kovn.controller.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.controller.testing.Clusters;
import io.kovn.controller.zone.JsonPatches;
import io.kovn.controller.zone.ZoneController;
import io.kovn.controller.zone.ZoneControllerConfig;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.nb.LoadBalancer;
import io.kovn.ovn.nb.LoadBalancerGroup;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The service controller of one zone against a real control plane (kube-controller-manager's endpointslice controller
 * writes the slices from the pods' status) and a real NB: the reference's load balancers and groups, one transaction
 * per endpoint change, nothing written by a restart (and a crash's leftover removed by it), someone else's change
 * repaired, nothing left by a deleted service.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class ServiceLoadBalancersTest {
    static final Duration CONVERGE = Duration.ofSeconds(30);
    static final String NS = "svc";
    static final String NODE = "node-a";

    KubernetesClient client;
    OvnDatabases db;
    ZoneController zone;
    String webIp;
    String localIp;
    String emptyIp;
    int nodePort;
    final Map<String, String> podIps = new HashMap<>();

    @BeforeAll
    void start() {
        client = SharedCluster.fresh().admin();
        db = OvnDatabases.start(OvnDatabases.Config.nbSb());
        try {
            Clusters.allocatedNode(
                    client, NODE, 2, List.of("10.244.0.0/24"), "{\"ipv4\":\"100.88.0.2/16\"}", "172.31.0.2");
            Clusters.allocatedNode(
                    client, "node-b", 3, List.of("10.244.1.0/24"), "{\"ipv4\":\"100.88.0.3/16\"}", "172.31.0.3");
            client.nodes()
                    .withName(NODE)
                    .subresource("status")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"172.31.0.2\"}]}}");
            LocalCluster.createNamespace(client, NS, Map.of());
            zone = startZone();
            pod("web-1", NODE, "web");
            pod("web-2", "node-b", "web");
            pod("local-1", NODE, "local");
            pod("local-2", "node-b", "local");
            webIp = service(new ServiceBuilder(base("web", "web"))
                    .editSpec()
                    .withPorts(
                            new ServicePortBuilder()
                                    .withName("http")
                                    .withProtocol("TCP")
                                    .withPort(80)
                                    .withTargetPort(new IntOrString("http"))
                                    .build(),
                            new ServicePortBuilder()
                                    .withName("dns")
                                    .withProtocol("UDP")
                                    .withPort(53)
                                    .withTargetPort(new IntOrString(5353))
                                    .build())
                    .endSpec()
                    .build());
            Service local = new ServiceBuilder(base("local", "local"))
                    .editSpec()
                    .withType("NodePort")
                    .withExternalTrafficPolicy("Local")
                    .withPorts(new ServicePortBuilder()
                            .withProtocol("TCP")
                            .withPort(80)
                            .withTargetPort(new IntOrString(8080))
                            .build())
                    .endSpec()
                    .build();
            localIp = service(local);
            nodePort = client.services()
                    .inNamespace(NS)
                    .withName("local")
                    .get()
                    .getSpec()
                    .getPorts()
                    .getFirst()
                    .getNodePort();
            emptyIp = service(new ServiceBuilder(base("empty", "nobody"))
                    .editSpec()
                    .withPorts(new ServicePortBuilder()
                            .withProtocol("TCP")
                            .withPort(80)
                            .withTargetPort(new IntOrString(8080))
                            .build())
                    .endSpec()
                    .build());
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    ZoneController startZone() {
        return ZoneController.start(
                ZoneControllerConfig.of(NODE, db.nb().unixEndpoint(), db.sb().unixEndpoint()), client);
    }

    @AfterAll
    void stop() {
        try (OvnDatabases d = db) {
            if (zone != null) {
                zone.close();
            }
        }
    }

    static Service base(String name, String app) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withSelector(Map.of("app", app))
                .endSpec()
                .build();
    }

    String service(Service s) {
        return client.services().inNamespace(NS).resource(s).create().getSpec().getClusterIP();
    }

    /** A running, ready pod with named ports, as the kubelet reports it (the zone allocates node-a's addresses). */
    void pod(String name, String node, String app) {
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .withLabels(Map.of("app", app))
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .addNewPort()
                        .withName("http")
                        .withContainerPort(8080)
                        .withProtocol("TCP")
                        .endPort()
                        .addNewPort()
                        .withName("dns")
                        .withContainerPort(5353)
                        .withProtocol("UDP")
                        .endPort()
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        String ip;
        if (node.equals(NODE)) {
            await().atMost(CONVERGE).until(() -> Clusters.podNetworks(client, NS, name) != null);
            ip = IpLiterals.format(PodNetworks.parse(Clusters.podNetworks(client, NS, name))
                    .defaultNetwork()
                    .orElseThrow()
                    .ipAddresses()
                    .getFirst()
                    .address());
        } else {
            ip = "10.244.1." + (10 + podIps.size());
        }
        podIps.put(name, ip);
        status(name, ip, true);
    }

    void status(String pod, String ip, boolean ready) {
        client.pods()
                .inNamespace(NS)
                .withName(pod)
                .subresource("status")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        JsonPatches.json(Map.of(
                                "status",
                                Map.of(
                                        "phase",
                                        "Running",
                                        "podIP",
                                        ip,
                                        "podIPs",
                                        List.of(Map.of("ip", ip)),
                                        "conditions",
                                        List.of(Map.of("type", "Ready", "status", ready ? "True" : "False"))))));
    }

    /** The zone's load balancers of the test's namespace, by name. */
    Map<String, LoadBalancer> lbs() {
        return zone.databases().nbCache().table(LoadBalancer.TABLE_NAME).rows().stream()
                .map(LoadBalancer::fromRow)
                .filter(lb -> lb.name().startsWith("Service_" + NS + "/"))
                .collect(Collectors.toMap(LoadBalancer::name, Function.identity()));
    }

    /** One row of {@code ovn-nbctl lb-list}: uuid, the name's first 16 characters, protocol, vip, backends. */
    static String lbListLine(Uuid uuid, String protocol, String vip, String backends) {
        return Pattern.quote(uuid.toString()) + "\\s+Service_svc/\\S+\\s+" + protocol + "\\s+" + Pattern.quote(vip)
                + "\\s+" + Pattern.quote(backends) + "\\s*\\n";
    }

    Row byName(String table, String name) {
        return zone.databases().nbCache().table(table).byName(name).getFirst();
    }

    Set<Uuid> groupMembers(String group) {
        return LoadBalancerGroup.fromRow(byName(LoadBalancerGroup.TABLE_NAME, group))
                .loadBalancer();
    }

    String ep(String pod, int port) {
        return podIps.get(pod) + ":" + port;
    }

    /** Until no service reconcile has started for a while and nothing of the zone is queued. */
    void awaitQuiet() {
        long[] seen = {-1};
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(400)).until(() -> {
            long now = zone.services().reconciler().reconciles()
                    + zone.topology().reconciles()
                    + zone.podPorts().times().count();
            boolean quiet = now == seen[0] && zone.idle();
            seen[0] = now;
            return quiet;
        });
    }

    @Test
    @Order(1)
    void servicesHaveTheReferencesLoadBalancersInTheirGroups() {
        String web = "Service_svc/web_TCP_cluster";
        String local = "Service_svc/local_TCP_node_local_router_" + NODE;
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(lbs())
                    .containsOnlyKeys(
                            web,
                            "Service_svc/web_UDP_cluster",
                            "Service_svc/local_TCP_cluster",
                            local,
                            "Service_svc/local_TCP_node_switch_" + NODE,
                            "Service_svc/empty_TCP_cluster");
            assertThat(lbs().get(web).vips())
                    .containsExactly(Map.entry(webIp + ":80", ep("web-1", 8080) + "," + ep("web-2", 8080)));
        });
        Map<String, LoadBalancer> lbs = lbs();
        assertThat(lbs.get(web).protocol()).contains(LoadBalancer.Protocol.TCP);
        assertThat(lbs.get(web).options())
                .containsEntry("reject", "true")
                .containsEntry("event", "false")
                .containsEntry("skip_snat", "false")
                .containsEntry("neighbor_responder", "none")
                .containsEntry("hairpin_snat_ip", "169.254.0.5 fd69::5");
        assertThat(lbs.get(web).externalIds())
                .containsEntry("k8s.ovn.org/kind", "Service")
                .containsEntry("k8s.ovn.org/owner", "svc/web")
                .containsEntry("k8s.ovn.org/owner-type", "Service");
        // the UDP port's target is a number, the TCP port's the pods' named port "http"
        assertThat(lbs.get("Service_svc/web_UDP_cluster").vips())
                .containsExactly(Map.entry(webIp + ":53", ep("web-1", 5353) + "," + ep("web-2", 5353)));
        assertThat(lbs.get(local).vips()).containsExactly(Map.entry("172.31.0.2:" + nodePort, ep("local-1", 8080)));
        assertThat(lbs.get(local).options()).containsEntry("skip_snat", "true");
        assertThat(lbs.get("Service_svc/local_TCP_node_switch_" + NODE).vips())
                .containsOnly(
                        Map.entry("169.254.169.3:" + nodePort, ep("local-1", 8080)),
                        Map.entry("172.31.0.2:" + nodePort, ep("local-1", 8080) + "," + ep("local-2", 8080)));
        assertThat(lbs.get("Service_svc/empty_TCP_cluster").vips()).containsExactly(Map.entry(emptyIp + ":80", ""));

        Map<String, Uuid> groups = LoadBalancerGroups.uuids(zone.databases().nbCache());
        assertThat(groupMembers("clusterLBGroup"))
                .contains(
                        lbs.get(web).uuid(),
                        lbs.get("Service_svc/empty_TCP_cluster").uuid())
                .doesNotContain(lbs.get(local).uuid());
        assertThat(groupMembers("clusterRouterLBGroup")).contains(lbs.get(local).uuid());
        assertThat(groupMembers("clusterSwitchLBGroup"))
                .contains(lbs.get("Service_svc/local_TCP_node_switch_" + NODE).uuid());
        assertThat(LogicalSwitch.fromRow(byName(LogicalSwitch.TABLE_NAME, NODE)).loadBalancerGroup())
                .containsExactlyInAnyOrder(groups.get("clusterLBGroup"), groups.get("clusterSwitchLBGroup"));
        assertThat(LogicalRouter.fromRow(byName(LogicalRouter.TABLE_NAME, "ovn_cluster_router"))
                        .loadBalancerGroup())
                .containsExactly(groups.get("clusterLBGroup"));

        // what an operator reads (ovn-nbctl cuts the LB column to 16 characters)
        assertThat(db.nbctl("lb-list"))
                .containsPattern(lbListLine(
                        lbs.get(web).uuid(), "tcp", webIp + ":80", ep("web-1", 8080) + "," + ep("web-2", 8080)));
        assertThat(db.nbctl("lb-list"))
                .containsPattern(lbListLine(
                        lbs.get("Service_svc/web_UDP_cluster").uuid(),
                        "udp",
                        webIp + ":53",
                        ep("web-1", 5353) + "," + ep("web-2", 5353)));
        assertThat(db.nbctl("ls-lb-list", NODE))
                .contains(
                        lbs.get(web).uuid().toString(),
                        lbs.get("Service_svc/local_TCP_node_switch_" + NODE)
                                .uuid()
                                .toString())
                .doesNotContain(lbs.get(local).uuid().toString());
    }

    @Test
    @Order(2)
    void theGatewayRouterGetsItsGroupsOnceItExists() {
        db.nbctl("lr-add", "GR_" + NODE);
        Map<String, Uuid> groups = LoadBalancerGroups.uuids(zone.databases().nbCache());
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(LogicalRouter.fromRow(byName(LogicalRouter.TABLE_NAME, "GR_" + NODE))
                                .loadBalancerGroup())
                        .containsExactlyInAnyOrder(groups.get("clusterLBGroup"), groups.get("clusterRouterLBGroup")));
        assertThat(db.nbctl("lr-lb-list", "GR_" + NODE))
                .contains(
                        lbs().get("Service_svc/local_TCP_node_local_router_" + NODE)
                                .uuid()
                                .toString(),
                        lbs().get("Service_svc/web_TCP_cluster").uuid().toString())
                .doesNotContain(lbs().get("Service_svc/local_TCP_node_switch_" + NODE)
                        .uuid()
                        .toString());
        // converged: the groups' step has nothing more to do
        assertThat(LoadBalancerGroups.plan(NODE, zone.databases().nbCache()).isEmpty())
                .isTrue();
    }

    @Test
    @Order(3)
    void anEndpointChangeIsOneTransaction() {
        awaitQuiet();
        long before = zone.databases().nbCounters().transactions();
        status("web-2", podIps.get("web-2"), false);
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(
                                lbs().get("Service_svc/web_TCP_cluster").vips())
                        .containsExactly(Map.entry(webIp + ":80", ep("web-1", 8080))));
        awaitQuiet();
        assertThat(lbs().get("Service_svc/web_UDP_cluster").vips())
                .containsExactly(Map.entry(webIp + ":53", ep("web-1", 5353)));
        assertThat(zone.databases().nbCounters().transactions() - before).isEqualTo(1);
    }

    @Test
    @Order(4)
    void aRestartWritesNothing() {
        Map<String, LoadBalancer> before = lbs();
        zone.close();
        zone = startZone();
        await().atMost(CONVERGE)
                .until(() ->
                        zone.services() != null && zone.services().reconciler().reconciles() >= 4);
        awaitQuiet();
        assertThat(zone.databases().nbCounters().transactions()).isZero();
        assertThat(lbs()).isEqualTo(before);

        // a crash left the load balancer of a service that is gone: the start's sweep removes it, alone
        zone.close();
        db.nbctl(
                "create",
                "Load_Balancer",
                "name=Service_svc/ghost_TCP_cluster",
                "protocol=tcp",
                "external_ids:k8s.ovn.org/owner-controller=default-network-controller",
                "external_ids:k8s.ovn.org/owner-type=Service",
                "external_ids:k8s.ovn.org/name=svc/ghost",
                "external_ids:k8s.ovn.org/id=default-network-controller:Service:svc/ghost:TCP_cluster");
        zone = startZone();
        await().atMost(CONVERGE)
                .until(() -> zone.services() != null && !lbs().containsKey("Service_svc/ghost_TCP_cluster"));
        awaitQuiet();
        assertThat(zone.databases().nbCounters().transactions()).isEqualTo(1);
        assertThat(lbs()).isEqualTo(before);
    }

    @Test
    @Order(5)
    void someoneElsesChangeToALoadBalancerIsRepaired() {
        LoadBalancer web = lbs().get("Service_svc/web_TCP_cluster");
        db.nbctl("clear", "Load_Balancer", web.uuid().toString(), "vips");
        db.nbctl("remove", "Load_Balancer", web.uuid().toString(), "options", "reject");
        await().atMost(CONVERGE)
                .untilAsserted(() ->
                        assertThat(lbs().get("Service_svc/web_TCP_cluster")).isEqualTo(web));
    }

    @Test
    @Order(6)
    void aDeletedServiceLeavesNoRowAndNoGroupMember() {
        Set<Uuid> web = lbs().values().stream()
                .filter(lb -> lb.name().startsWith("Service_svc/web_"))
                .map(LoadBalancer::uuid)
                .collect(Collectors.toSet());
        assertThat(web).hasSize(2);
        client.services().inNamespace(NS).withName("web").delete();
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(lbs().keySet()).noneMatch(n -> n.startsWith("Service_svc/web_")));
        assertThat(groupMembers("clusterLBGroup")).doesNotContainAnyElementsOf(web);
        assertThat(lbs()).containsKey("Service_svc/empty_TCP_cluster");
    }
}
