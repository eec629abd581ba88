package io.kovn.controller.policy;

import static io.kovn.controller.policy.PolicyCluster.ZONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.ovsdb.client.TrafficCounters;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The specification's {@code cluster-control} AdminNetworkPolicy enforced in a real zone (NB, SB, ovn-northd, zone
 * controller making the pods' switch ports): its troubleshooting commands run verbatim, ovn-trace reaches the verdicts,
 * status/events/metrics are published, a relabel writes only the affected address sets, a late switch port joins its
 * port group, a restart writes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class ClusterControlEnforcementTest {
    static final String PG = "a14645450421485494999";
    static final String POLICY =
            "external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control}";
    static final String RULE5 =
            "external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control,gress-index=\"5\"}";
    static final String LOGGING = "{\"deny\":\"alert\",\"allow\":\"notice\",\"pass\":\"warning\"}";

    PolicyCluster c;
    String restrictedB;
    String prom1;
    String dnsA;
    String dnsB;
    String busy;
    String nginx;

    @BeforeAll
    void start() throws Exception {
        c = new PolicyCluster();
        c.namespace("ingress-nginx");
        c.namespace("monitoring");
        c.namespace("restricted", "tenant", "restricted");
        c.startControllers();
        // The specification's pods: six in this zone, two remote, one host-network API server.
        nginx = c.pod("ingress-nginx", "controller", ZONE, "app", "nginx");
        c.pod("monitoring", "prom-0", "node-b", Map.of("app", "prom"), false, "scrape/TCP/8080");
        prom1 = c.pod("monitoring", "prom-1", ZONE, Map.of("app", "prom"), false, "scrape/TCP/8080");
        c.pod("restricted", "restricted-a", "node-b");
        restrictedB = c.pod("restricted", "restricted-b", ZONE);
        dnsA = c.pod("kube-system", "dns-a", ZONE, "app", "dns");
        dnsB = c.pod("kube-system", "dns-b", ZONE, "app", "dns");
        busy = c.pod("default", "busy", ZONE);
        c.pod("kube-system", "kube-apiserver", "node-cp", Map.of(), true);
        AdminNetworkPolicy anp;
        try (InputStream in = getClass().getResourceAsStream("cluster-control.yaml")) {
            anp = Serialization.unmarshal(in, AdminNetworkPolicy.class);
        }
        anp.getMetadata().setAnnotations(Map.of("k8s.ovn.org/acl-logging", LOGGING));
        c.client.resource(anp).create();
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(
                        () -> assertThat(c.column("Port_Group", PG, "ports")).hasSize(6));
        c.awaitIdle();
    }

    @AfterAll
    void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    @Order(1)
    void theSpecificationsTroubleshootingCommandsReturnThePolicysRows() {
        assertThat(c.find("name", "ACL", POLICY))
                .containsExactly(
                        "ANP:cluster-control:Egress:0",
                        "ANP:cluster-control:Egress:1",
                        "ANP:cluster-control:Egress:2",
                        "ANP:cluster-control:Egress:3",
                        "ANP:cluster-control:Egress:4",
                        "ANP:cluster-control:Egress:5",
                        "ANP:cluster-control:Ingress:0",
                        "ANP:cluster-control:Ingress:1",
                        "ANP:cluster-control:Ingress:1",
                        "ANP:cluster-control:Ingress:2",
                        "ANP:cluster-control:Ingress:3",
                        "ANP:cluster-control:Ingress:4");
        assertThat(c.find("name", "Address_Set", POLICY))
                .hasSize(11)
                .contains("a14545668191619617708", "a11452480169090787059");
        assertThat(c.find("name", "Port_Group", POLICY)).containsExactly(PG);
        assertThat(c.find("name", "ACL", RULE5)).containsExactly("ANP:cluster-control:Egress:5");
        assertThat(c.find("name", "Address_Set", RULE5)).containsExactly("a11452480169090787059");

        String rule5 = c.nbctl("find", "ACL", RULE5);
        assertThat(rule5)
                .contains(
                        "match               : \"inport == @a14645450421485494999 && ((ip4.dst == $a11452480169090787059))\"")
                .contains("action              : drop")
                .contains("direction           : from-lport")
                .contains("priority            : 26595")
                .contains("tier                : 1")
                .contains("meter               : acl-logging")
                .contains("options             : {apply-after-lb=\"true\"}")
                .contains("log                 : true")
                .contains("severity            : alert");
        assertThat(c.nbctl("list", "acl")).contains("cluster-control:Egress:5");
        assertThat(c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", "a11452480169090787059")
                        .strip())
                .isEqualTo("0.0.0.0/0");
        // ingress rule 0 peers: the ingress-nginx pod only
        assertThat(c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", "a14545668191619617708")
                        .strip())
                .isEqualTo(nginx);
        // egress rule 0 peers: the dns pods
        assertThat(addresses(set("Egress", 0))).containsExactlyInAnyOrder(dnsA, dnsB);
        // egress rule 1: the control-plane node's InternalIP; rule 3: worker nodes, the intranet CIDRs, no pods
        assertThat(addresses(set("Egress", 1))).containsExactly("172.18.0.3");
        assertThat(addresses(set("Egress", 3)))
                .containsExactlyInAnyOrder(
                        "172.18.0.2", "172.18.0.4", "172.30.0.0/30", "10.0.54.0/19", "10.0.56.38/32", "10.0.69.0/24");
        String pg = c.nbctl("list", "port-group", PG);
        assertThat(pg).contains("\"k8s.ovn.org/id\"=\"default-network-controller:AdminNetworkPolicy:cluster-control\"");
        assertThat(c.column("Port_Group", PG, "acls")).hasSize(12);
        List<String> members = c.column("Port_Group", PG, "ports");
        List<String> names = members.stream()
                .map(u -> c.nbctl("--bare", "--columns=name", "list", "Logical_Switch_Port", u)
                        .strip())
                .sorted()
                .toList();
        assertThat(names)
                .containsExactly(
                        "default_busy",
                        "ingress-nginx_controller",
                        "kube-system_dns-a",
                        "kube-system_dns-b",
                        "monitoring_prom-1",
                        "restricted_restricted-b");
        assertThat(c.find("name", "Meter", "name=acl-logging")).containsExactly("acl-logging");
    }

    String set(String direction, int index) {
        return c.find(
                        "name",
                        "Address_Set",
                        "external_ids{>=}{\"k8s.ovn.org/name\"=cluster-control,direction=" + direction
                                + ",gress-index=\"" + index + "\"}")
                .getFirst();
    }

    List<String> addresses(String set) {
        return c.column("Address_Set", set, "addresses");
    }

    @Test
    @Order(2)
    void ovnTraceOnTheZonesSouthboundReachesThePolicysVerdicts() {
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.ovn.sbctl("lflow-list")).contains("ANP:cluster-control:Egress:5"));
        // The specification's own trace: restricted → monitoring ICMP is dropped by egress rule 5.
        assertThat(c.trace("restricted_restricted-b", restrictedB, prom1, "icmp4"))
                .contains("ACL name=ANP:cluster-control:Egress:5,")
                .contains("verdict=drop")
                .doesNotContain("output(");
        // ingress-nginx → dns UDP 5353: egress rule 0 allows, then ingress rule 0 allows.
        assertThat(c.trace("ingress-nginx_controller", nginx, dnsA, "udp && udp.dst==5353"))
                .contains("ACL name=ANP:cluster-control:Egress:0,")
                .contains("ACL name=ANP:cluster-control:Ingress:0,")
                .contains("output(\"kube-system_dns-a\")")
                .doesNotContain("verdict=drop");
        // busy → dns TCP 53: egress rule 0 is UDP only, so egress rule 5 drops it.
        assertThat(c.trace("default_busy", busy, dnsA, "tcp && tcp.dst==53"))
                .contains("ACL name=ANP:cluster-control:Egress:5,")
                .doesNotContain("output(");
    }

    @Test
    @Order(3)
    void theZoneConditionAndTheMetricsArePublished() {
        await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
            AdminNetworkPolicy anp = c.client
                    .resources(AdminNetworkPolicy.class)
                    .withName("cluster-control")
                    .get();
            Condition ready = anp.getStatus().conditions().stream()
                    .filter(x -> x.getType().equals("Ready-In-Zone-" + ZONE))
                    .findFirst()
                    .orElseThrow();
            assertThat(ready.getStatus()).isEqualTo("True");
            assertThat(ready.getReason()).isEqualTo("SetupSucceeded");
            assertThat(ready.getMessage()).isEqualTo("Setting up OVN DB plumbing was successful");
        });
        PolicyControllerMetrics m = c.policies.metrics();
        assertThat(m.adminNetworkPolicies(ZONE)).isEqualTo(1);
        assertThat(m.baselineAdminNetworkPolicies(ZONE)).isZero();
        assertThat(m.anpRules(ZONE, "Ingress", "Allow")).isEqualTo(3);
        assertThat(m.anpRules(ZONE, "Ingress", "Pass")).isEqualTo(1);
        assertThat(m.anpRules(ZONE, "Egress", "Allow")).isEqualTo(4);
        assertThat(m.anpRules(ZONE, "Egress", "Deny")).isEqualTo(1);
        assertThat(m.anpDbObjects(ZONE, "ACL")).isEqualTo(12);
        assertThat(m.anpDbObjects(ZONE, "Address_Set")).isEqualTo(11);
        assertThat(c.registry.scrape().stream().map(s -> s.getMetadata().getPrometheusName()))
                .contains(
                        "ovnkube_controller_admin_network_policies",
                        "ovnkube_controller_admin_network_policies_db_objects");
        // where reconciles spend their time, the NB transaction's round trip apart
        var phases = (HistogramSnapshot) c.registry.scrape().stream()
                .filter(s -> s.getMetadata().getPrometheusName().equals("kovn_policy_reconcile_phase_seconds"))
                .findFirst()
                .orElseThrow();
        Map<String, Long> counts = new HashMap<>();
        phases.getDataPoints().forEach(d -> counts.put(d.getLabels().get("phase"), d.getCount()));
        assertThat(counts).containsKeys("snapshot", "translate", "write", "nb_transaction", "publish");
        assertThat(counts.get("nb_transaction")).isPositive().isLessThanOrEqualTo(counts.get("write"));
    }

    @Test
    @Order(4)
    void relabellingOnePodMutatesOnlyTheAddressSetThatSelectsIt() {
        String egress0 = set("Egress", 0);
        TrafficCounters.Snapshot before = c.policies.northbound().counters().snapshot();
        c.label("kube-system", "dns-b", "app", "web");
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(addresses(egress0)).containsExactly(dnsA));
        c.awaitIdle();
        TrafficCounters.Snapshot pod =
                c.policies.northbound().counters().snapshot().minus(before);
        System.out.printf(
                "[measure] pod relabel: %d transactions, %d write operations%n",
                pod.transactions(), pod.writeOperations());
        assertThat(pod.transactions()).isEqualTo(1);
        assertThat(pod.writeOperations()).isEqualTo(1);

        // A namespace moving from tenant=restricted to tenant=open changes the four tenant rules' sets.
        before = c.policies.northbound().counters().snapshot();
        c.labelNamespace("restricted", "tenant", "open");
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(addresses(set("Ingress", 3))).isEmpty());
        c.awaitIdle();
        TrafficCounters.Snapshot ns =
                c.policies.northbound().counters().snapshot().minus(before);
        System.out.printf(
                "[measure] namespace relabel: %d transactions, %d write operations%n",
                ns.transactions(), ns.writeOperations());
        assertThat(addresses(set("Ingress", 2))).hasSize(2).contains(restrictedB);
        assertThat(ns.transactions()).isEqualTo(1);
        assertThat(ns.writeOperations()).isEqualTo(4);
    }

    @Test
    @Order(5)
    void aPodRunningBeforeItsSwitchPortExistedJoinsThePortGroupWhenThePortAppears() {
        c.zone.close();
        c.zone = null;
        // The pod is Running with its address before any switch port exists (the zone is down).
        String ip = c.subnetBase(ZONE) + "200";
        String network = "{\"default\":{\"ip_addresses\":[\"" + ip + "/24\"],\"mac_address\":\"" + PolicyCluster.mac(ip)
                + "\",\"gateway_ips\":[\"" + c.subnetBase(ZONE) + "1\"],\"routes\":[],\"role\":\"primary\"}}";
        c.client
                .pods()
                .inNamespace("default")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("late")
                        .withNamespace("default")
                        .withAnnotations(Map.of("k8s.ovn.org/pod-networks", network))
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(ZONE)
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        c.running("default", "late", ip);
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(addresses(set("Ingress", 4))).contains(ip));
        assertThat(c.column("Port_Group", PG, "ports")).hasSize(6);
        long podEventsBefore = c.policies.reconciler().reconciles();

        c.startZone(); // the port appears now; no pod event follows
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(
                        () -> assertThat(c.column("Port_Group", PG, "ports")).hasSize(7));
        String late = c.nbctl("--bare", "--columns=_uuid", "find", "Logical_Switch_Port", "name=default_late")
                .strip();
        assertThat(c.nbctl("--bare", "--columns=ports", "list", "Port_Group", PG))
                .contains(late);
        assertThat(c.policies.reconciler().reconciles()).isGreaterThan(podEventsBefore);
    }

    @Test
    @Order(6)
    void aMalformedLoggingAnnotationTurnsLoggingOffForThatPolicyOnly() {
        c.apply("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata:
                  name: quiet
                  annotations:
                    k8s.ovn.org/acl-logging: '{"deny": alert'
                spec:
                  priority: 34
                  subject:
                    namespaces:
                      matchLabels:
                        kubernetes.io/metadata.name: default
                  egress:
                  - name: bad-range
                    action: Deny
                    to:
                    - networks: ["192.0.2.0/24"]
                    ports:
                    - portRange: {protocol: TCP, start: 9000, end: 8000}
                  - name: deny-doc-net
                    action: Deny
                    to:
                    - networks: ["198.51.100.0/24"]
                """, AdminNetworkPolicy.class);
        String quiet = "external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=quiet}";
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.find("log", "ACL", quiet))
                        .containsOnly("false")
                        .isNotEmpty());
        assertThat(c.find("log", "ACL", POLICY)).containsOnly("true").hasSize(12);
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.events)
                        .anyMatch(e -> e.startsWith("AdminNetworkPolicy/quiet Warning InvalidACLLoggingAnnotation"))
                        .anyMatch(e -> e.startsWith("AdminNetworkPolicy/quiet Warning InvalidPortRange"))
                        .anyMatch(e -> e.startsWith("AdminNetworkPolicy/quiet Warning ANPWithDuplicatePriority"))
                        .anyMatch(e ->
                                e.startsWith("AdminNetworkPolicy/cluster-control Warning ANPWithDuplicatePriority")));
        c.awaitIdle();
        long warnings = c.events.size();
        c.policies.resync();
        c.awaitIdle();
        assertThat(c.events)
                .as("an event per distinct problem, not per reconcile")
                .hasSize((int) warnings);
    }

    @Test
    @Order(7)
    void aRestartWithNothingChangedWritesNothing() {
        // the process's NB connection, shared with the zone controller: what it sends from now on
        TrafficCounters.Snapshot before = c.policies.northbound().counters().snapshot();
        c.policies.close();
        c.policies = null;
        c.startPolicies();
        await().atMost(PolicyCluster.CONVERGE)
                .until(() -> c.policies.reconciler().reconciles() > 0);
        c.awaitIdle();
        TrafficCounters.Snapshot writes =
                c.policies.northbound().counters().snapshot().minus(before);
        System.out.printf(
                "[measure] restart: %d reconciles, %d transactions, %d write operations%n",
                c.policies.reconciler().reconciles(), writes.transactions(), writes.writeOperations());
        assertThat(writes.writeOperations()).isZero();
        assertThat(writes.transactions()).isZero();
    }
}
