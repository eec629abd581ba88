package io.kovn.sandbox.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.trace.PolicyTracer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Specification 003's troubleshooting commands, run verbatim with the real {@code ovn-nbctl} against a zone's NB of the
 * conformance sandbox, with the specification's example {@code cluster-control} ANP applied (plus what its rules need
 * to select something: a monitoring pod with the {@code scrape} named port, a kube-system pod {@code app=dns}, a
 * control-plane node and two worker nodes). The rows must be the ones the specification shows: names, hashed names,
 * priorities, actions, matches and members. And {@code kovn trace} names the example's rules, toward host-network pods
 * too (its {@code nodes} peers).
 */
@ExtendWith(ConformanceExtension.class)
@Tag("real")
class ClusterControlTroubleshootingE2ETest {
    static final String PG = "a14645450421485494999";
    static final String ID = "default-network-controller:AdminNetworkPolicy:cluster-control:";
    static final String FIND_ACL =
            "ovn-nbctl find ACL 'external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control}'";
    static final String FIND_AS =
            "ovn-nbctl find Address_Set 'external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control}'";
    static final String FIND_PG =
            "ovn-nbctl find Port_Group 'external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control}'";
    static final String FIND_ACL_5 =
            "ovn-nbctl find ACL 'external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control,gress-index=\"5\"}'";
    static final String FIND_AS_5 =
            "ovn-nbctl find Address_Set 'external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control,gress-index=\"5\"}'";
    static final String LIST_PG = "ovn-nbctl list port-group a14645450421485494999";

    /** The specification's ACLs: id suffix → action, priority, match (the named-port ACL is checked apart). */
    static final Map<String, List<String>> ACLS = Map.ofEntries(
            Map.entry(
                    "Ingress:0:None",
                    List.of(
                            "allow-related",
                            "26600",
                            "outport == @" + PG + " && ((ip4.src == $a14545668191619617708))")),
            Map.entry(
                    "Ingress:1:tcp",
                    List.of(
                            "allow-related",
                            "26599",
                            "outport == @" + PG + " && ((ip4.src == $a6786643370959569281)) && tcp && tcp.dst==7564")),
            Map.entry(
                    "Ingress:2:None",
                    List.of(
                            "allow-related",
                            "26598",
                            "outport == @" + PG + " && ((ip4.src == $a13730899355151937870))")),
            Map.entry(
                    "Ingress:3:None",
                    List.of("pass", "26597", "outport == @" + PG + " && ((ip4.src == $a764182844364804195))")),
            Map.entry(
                    "Ingress:4:None",
                    List.of("drop", "26596", "outport == @" + PG + " && ((ip4.src == $a13814616246365836720))")),
            Map.entry(
                    "Egress:0:udp",
                    List.of(
                            "allow-related",
                            "26600",
                            "inport == @" + PG + " && ((ip4.dst == $a13517855690389298082)) && udp && udp.dst==5353")),
            Map.entry(
                    "Egress:1:tcp",
                    List.of(
                            "allow-related",
                            "26599",
                            "inport == @" + PG + " && ((ip4.dst == $a10706246167277696183)) && tcp && tcp.dst==6443")),
            Map.entry(
                    "Egress:2:tcp",
                    List.of(
                            "allow-related",
                            "26598",
                            "inport == @" + PG
                                    + " && ((ip4.dst == $a18396736153283155648)) && tcp && tcp.dst=={8991,8992}")),
            Map.entry(
                    "Egress:3:None",
                    List.of(
                            "allow-related",
                            "26597",
                            "inport == @" + PG + " && ((ip4.dst == $a10622494091691694581))")),
            Map.entry(
                    "Egress:4:None",
                    List.of("pass", "26596", "inport == @" + PG + " && ((ip4.dst == $a5972452606168369118))")),
            Map.entry(
                    "Egress:5:None",
                    List.of("drop", "26595", "inport == @" + PG + " && ((ip4.dst == $a11452480169090787059))")));

    /** The specification's address set names, by rule. */
    static final Map<String, String> ADDRESS_SETS = Map.ofEntries(
            Map.entry("Ingress:0", "a14545668191619617708"),
            Map.entry("Ingress:1", "a6786643370959569281"),
            Map.entry("Ingress:2", "a13730899355151937870"),
            Map.entry("Ingress:3", "a764182844364804195"),
            Map.entry("Ingress:4", "a13814616246365836720"),
            Map.entry("Egress:0", "a13517855690389298082"),
            Map.entry("Egress:1", "a10706246167277696183"),
            Map.entry("Egress:2", "a18396736153283155648"),
            Map.entry("Egress:3", "a10622494091691694581"),
            Map.entry("Egress:4", "a5972452606168369118"),
            Map.entry("Egress:5", "a11452480169090787059"));

    @Test
    void theSpecificationsFindCommandsReturnTheRowsItShows(SuiteRun run, ConformanceCluster cluster) {
        var client = cluster.sandbox.client;
        try {
            label(cluster, "node-1", "node-role.kubernetes.io/control-plane", "");
            label(cluster, "node-2", "node-role.kubernetes.io/worker", "");
            label(cluster, "node-3", "node-role.kubernetes.io/worker", "");
            cluster.sandbox.namespace("monitoring", Map.of());
            client.pods()
                    .inNamespace("monitoring")
                    .resource(pod("monitoring", "prometheus-0", "node-1", Map.of(), "TCP", 8080, "scrape"))
                    .create();
            client.pods()
                    .inNamespace("kube-system")
                    .resource(pod("kube-system", "coredns-0", "node-2", Map.of("app", "dns"), "UDP", 5353, "dns"))
                    .create();
            Pod prometheus = cluster.sandbox.awaitRunning("monitoring", "prometheus-0");
            Pod dns = cluster.sandbox.awaitRunning("kube-system", "coredns-0");
            run.apply("spec003/cluster-control.yaml");
            EmulatedNode zone = cluster.node("node-1");
            await("cluster-control programmed in zone node-1")
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> checkRows(cluster, zone, prometheus, dns));
            // The specification's status: one Ready-In-Zone condition per zone.
            await("Ready-In-Zone conditions")
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(readyZones(cluster))
                            .containsExactlyInAnyOrder(
                                    "Ready-In-Zone-node-1", "Ready-In-Zone-node-2", "Ready-In-Zone-node-3"));
            traceNamesTheRulesTowardNodes(cluster, prometheus);
        } finally {
            client.namespaces().withName("monitoring").delete();
            client.pods().inNamespace("kube-system").withName("coredns-0").delete();
            for (String node : List.of("node-1", "node-2", "node-3")) {
                label(cluster, node, "node-role.kubernetes.io/control-plane", null);
                label(cluster, node, "node-role.kubernetes.io/worker", null);
            }
        }
    }

    /**
     * {@code kovn trace} toward the host-network centaurs (their nodes' addresses, behind the management ports): the
     * {@code nodes} peers of the example decide, named as the policy names them. F0 is on node-1, the control plane; F1
     * on node-2, a worker.
     */
    private static void traceNamesTheRulesTowardNodes(ConformanceCluster cluster, Pod prometheus) {
        PolicyTracer tracer = cluster.tracer();
        Pod controlPlane = cluster.pod("F0");
        Pod worker = cluster.pod("F1");
        await("traces toward the nodes")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    PolicyTracer.Result kapi = tracer.trace(prometheus, controlPlane, "tcp", 6443);
                    assertThat(kapi.allowed()).as(kapi.render(false)).isTrue();
                    assertThat(kapi.reason()).isEqualTo("delivered to k8s-node-1");
                    assertThat(kapi.decidedByLine())
                            .isEqualTo(
                                    "egress: ANP cluster-control egress rule 1 \"allow-to-kapi-server\" (Allow); ingress: default allow");

                    PolicyTracer.Result workerNode = tracer.trace(prometheus, worker, "tcp", 6443);
                    assertThat(workerNode.allowed())
                            .as(workerNode.render(false))
                            .isTrue();
                    assertThat(workerNode.reason()).isEqualTo("delivered to k8s-node-2");
                    assertThat(workerNode.decidedByLine())
                            .isEqualTo(
                                    "egress: ANP cluster-control egress rule 3"
                                            + " \"allow-to-open-tenants-and-intranet-and-worker-nodes\" (Allow); ingress: default allow");

                    PolicyTracer.Result other = tracer.trace(prometheus, controlPlane, "tcp", 80);
                    assertThat(other.allowed()).as(other.render(false)).isFalse();
                    assertThat(other.decidedByLine())
                            .isEqualTo("egress: ANP cluster-control egress rule 5 \"default-deny\" (Deny)");
                    assertThat(other.render(false))
                            .contains("matched egress ACL ANP:cluster-control:Egress:5 (tier 1, priority 26595, drop)"
                                    + " in zone node-1: ANP cluster-control egress rule 5 \"default-deny\" (Deny)")
                            .endsWith("verdict: denied");
                });
        assertThatThrownBy(() -> tracer.trace(controlPlane, prometheus, "tcp", 8080))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a host-network pod");
    }

    private static void checkRows(ConformanceCluster cluster, EmulatedNode zone, Pod prometheus, Pod dns) {
        List<Map<String, String>> acls = run(zone, FIND_ACL);
        assertThat(acls).as(FIND_ACL).hasSize(12);
        for (Map<String, String> acl : acls) {
            String id = NbRecords.mapValue(acl.get("external_ids"), "k8s.ovn.org/id");
            assertThat(id).startsWith(ID);
            String key = id.substring(ID.length());
            String[] parts = key.split(":");
            assertThat(acl.get("name")).as(key).isEqualTo("\"ANP:cluster-control:" + parts[0] + ":" + parts[1] + "\"");
            assertThat(acl.get("tier")).as(key).isEqualTo("1");
            assertThat(acl.get("meter")).as(key).isEqualTo("acl-logging");
            assertThat(acl.get("direction")).as(key).isEqualTo(parts[0].equals("Ingress") ? "to-lport" : "from-lport");
            assertThat(acl.get("options"))
                    .as(key)
                    .isEqualTo(parts[0].equals("Ingress") ? "{}" : "{apply-after-lb=\"true\"}");
            assertThat(NbRecords.mapValue(acl.get("external_ids"), "gress-index"))
                    .as(key)
                    .isEqualTo(parts[1]);
            assertThat(NbRecords.mapValue(acl.get("external_ids"), "port-policy-protocol"))
                    .as(key)
                    .isEqualTo(parts[2]);
            if (key.equals("Ingress:1:tcp-namedPort")) {
                // Resolved on the subject pods: the one pod with a port named scrape.
                assertThat(acl.get("action")).isEqualTo("allow-related");
                assertThat(acl.get("priority")).isEqualTo("26599");
                assertThat(NbRecords.unquote(acl.get("match")))
                        .contains("ip4.src == $a6786643370959569281")
                        .endsWith(
                                "tcp && ((ip4.dst == " + prometheus.getStatus().getPodIP() + " && tcp.dst == 8080))");
                continue;
            }
            List<String> expected = ACLS.get(key);
            assertThat(expected).as("an ACL the specification shows: " + key).isNotNull();
            assertThat(acl.get("action")).as(key).isEqualTo(expected.get(0));
            assertThat(acl.get("priority")).as(key).isEqualTo(expected.get(1));
            assertThat(NbRecords.unquote(acl.get("match"))).as(key).isEqualTo(expected.get(2));
        }

        List<Map<String, String>> sets = run(zone, FIND_AS);
        assertThat(sets).as(FIND_AS).hasSize(11);
        Map<String, Set<String>> byRule = sets.stream()
                .collect(Collectors.toMap(
                        s -> {
                            String rule = NbRecords.mapValue(s.get("external_ids"), "direction") + ":"
                                    + NbRecords.mapValue(s.get("external_ids"), "gress-index");
                            assertThat(s.get("name")).as(rule).isEqualTo(ADDRESS_SETS.get(rule));
                            assertThat(NbRecords.mapValue(s.get("external_ids"), "ip-family"))
                                    .isEqualTo("v4");
                            return rule;
                        },
                        s -> addresses(s.get("addresses"))));
        Set<String> allPodIps = new TreeSet<>(cluster.pods().stream()
                .filter(p -> !Boolean.TRUE.equals(p.getSpec().getHostNetwork()))
                .map(p -> p.getStatus().getPodIP())
                .toList());
        allPodIps.add(prometheus.getStatus().getPodIP());
        allPodIps.add(dns.getStatus().getPodIP());
        assertThat(byRule.get("Ingress:0")).as("no ingress-nginx namespace").isEmpty();
        assertThat(byRule.get("Ingress:1"))
                .containsExactly(prometheus.getStatus().getPodIP());
        assertThat(byRule.get("Ingress:4"))
                .as("namespaces: {} is every pod")
                .containsExactlyInAnyOrderElementsOf(allPodIps);
        assertThat(byRule.get("Egress:0")).containsExactly(dns.getStatus().getPodIP());
        assertThat(byRule.get("Egress:1"))
                .as("the control-plane node")
                .containsExactly(cluster.node("node-1").encapIp());
        assertThat(byRule.get("Egress:3"))
                .as("worker nodes and the intranet CIDRs verbatim")
                .containsExactlyInAnyOrder(
                        cluster.node("node-2").encapIp(),
                        cluster.node("node-3").encapIp(),
                        "172.30.0.0/30",
                        "10.0.54.0/19",
                        "10.0.56.38/32",
                        "10.0.69.0/24");
        assertThat(byRule.get("Egress:5")).containsExactly("0.0.0.0/0");

        List<Map<String, String>> groups = run(zone, FIND_PG);
        assertThat(groups).as(FIND_PG).hasSize(1);
        assertThat(groups.getFirst().get("name")).isEqualTo(PG);
        assertThat(uuids(groups.getFirst().get("acls")))
                .containsExactlyInAnyOrderElementsOf(
                        acls.stream().map(a -> a.get("_uuid")).toList());
        List<String> localPorts = new ArrayList<>();
        for (Pod p : List.of(cluster.pod("G0"), cluster.pod("S1"), cluster.pod("R0"), prometheus)) {
            localPorts.add(zone.nbctl(
                            "--bare",
                            "--columns=_uuid",
                            "find",
                            "Logical_Switch_Port",
                            "name=" + p.getMetadata().getNamespace() + "_"
                                    + p.getMetadata().getName())
                    .strip());
        }
        assertThat(uuids(groups.getFirst().get("ports")))
                .as("the zone's subject pods")
                .containsExactlyInAnyOrderElementsOf(localPorts);
        assertThat(run(zone, LIST_PG)).isEqualTo(groups);

        List<Map<String, String>> rule5 = run(zone, FIND_ACL_5);
        assertThat(rule5).as(FIND_ACL_5).hasSize(1);
        assertThat(rule5.getFirst().get("name")).isEqualTo("\"ANP:cluster-control:Egress:5\"");
        List<Map<String, String>> set5 = run(zone, FIND_AS_5);
        assertThat(set5).as(FIND_AS_5).hasSize(1);
        assertThat(set5.getFirst().get("name")).isEqualTo("a11452480169090787059");
        assertThat(set5.getFirst().get("addresses")).isEqualTo("[\"0.0.0.0/0\"]");

        // `ovn-nbctl list acl | grep cluster-control:Egress:5 -C 4`: the grep lands on the rule's one ACL.
        List<String> listed = Arrays.asList(zone.nbctl("list", "acl").split("\n"));
        List<Integer> hits = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) if (listed.get(i).contains("cluster-control:Egress:5")) hits.add(i);
        assertThat(hits).as("lines matching cluster-control:Egress:5").hasSize(2); // its k8s.ovn.org/id and its name
        String context = String.join(
                "\n", listed.subList(Math.max(0, hits.getFirst() - 4), Math.min(listed.size(), hits.getLast() + 5)));
        assertThat(context)
                .contains("action              : drop")
                .contains("direction           : from-lport")
                .contains("match               : \"inport == @" + PG + " && ((ip4.dst == $a11452480169090787059))\"");
    }

    /** Types of the cluster-control ANP's conditions that are True/SetupSucceeded with the specification's message. */
    @SuppressWarnings("unchecked")
    private static List<String> readyZones(ConformanceCluster cluster) {
        var anp = cluster.sandbox
                .client
                .genericKubernetesResources(Policies.Kind.ANP.context)
                .withName("cluster-control")
                .get();
        Map<String, Object> status =
                (Map<String, Object>) anp.getAdditionalProperties().get("status");
        if (status == null || status.get("conditions") == null) return List.of();
        return ((List<Map<String, Object>>) status.get("conditions"))
                .stream()
                        .filter(c -> "True".equals(c.get("status"))
                                && "SetupSucceeded".equals(c.get("reason"))
                                && "Setting up OVN DB plumbing was successful".equals(c.get("message")))
                        .map(c -> (String) c.get("type"))
                        .toList();
    }

    private static List<Map<String, String>> run(EmulatedNode zone, String commandLine) {
        List<String> words = NbRecords.words(commandLine);
        assertThat(words.getFirst()).isEqualTo("ovn-nbctl");
        return NbRecords.parse(zone.nbctl(words.subList(1, words.size()).toArray(String[]::new)));
    }

    private static Set<String> addresses(String printed) {
        return uuids(printed).stream().map(NbRecords::unquote).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The elements of a printed set column ({@code [a, b]}). */
    private static List<String> uuids(String printed) {
        String body = printed.strip().replaceAll("^\\[|]$", "").strip();
        return body.isEmpty() ? List.of() : Arrays.asList(body.split(",\\s*"));
    }

    private static Pod pod(
            String namespace,
            String name,
            String node,
            Map<String, String> labels,
            String protocol,
            int port,
            String portName) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .addToLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .withImage("kovn/netutil")
                .withPorts(new ContainerPortBuilder()
                        .withProtocol(protocol)
                        .withContainerPort(port)
                        .withName(portName)
                        .build())
                .endContainer()
                .endSpec()
                .build();
    }

    private static void label(ConformanceCluster cluster, String node, String key, String value) {
        // A merge patch: the cluster manager and node agents annotate nodes meanwhile.
        Map<String, Object> labels = new HashMap<>();
        labels.put(key, value);
        cluster.sandbox
                .client
                .nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        cluster.sandbox
                                .client
                                .getKubernetesSerialization()
                                .asJson(Map.of("metadata", Map.of("labels", labels))));
    }
}
