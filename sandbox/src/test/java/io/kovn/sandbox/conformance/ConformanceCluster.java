package io.kovn.sandbox.conformance;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.sandbox.e2e.SandboxFixture;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.trace.AclRules;
import io.kovn.sandbox.trace.PolicyTracer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conformance suite's base fixture (anp-conformance-facts.md §1.2) in one real sandbox of three emulated nodes:
 * five namespaces labelled {@code conformance-house=<house>}, the "StatefulSet" pods G0..R1 (plain pods: the sandbox
 * runs no controllers) spread over the nodes so that both same-node and cross-node flows occur, and the host-network
 * centaurs F0 and F1 on two different nodes. Pods are named as the StatefulSets would name them
 * ({@code harry-potter-0}, ...). Over IPv6 the sandbox is dual-stack and the probes use the pods' (and centaurs'
 * nodes') IPv6 addresses.
 */
final class ConformanceCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConformanceCluster.class);
    static final String NAMESPACE_PREFIX = "network-policy-conformance-";
    /** Host-network ports HNP[0..7], the suite's default range. */
    static final List<Integer> HOST_NETWORK_PORTS = List.of(34345, 34346, 34347, 34348, 34349, 34350, 34351, 34352);

    static final Map<Character, String> HOUSES =
            Map.of('G', "gryffindor", 'S', "slytherin", 'H', "hufflepuff", 'R', "ravenclaw", 'F', "forbidden-forrest");
    static final Map<Character, String> STATEFUL_SETS = Map.of(
            'G', "harry-potter", 'S', "draco-malfoy", 'H', "cedric-diggory", 'R', "luna-lovegood", 'F', "centaur");
    static final int NODES = 3;

    final SandboxFixture sandbox;
    /** Whether the sandbox is dual-stack and probed over IPv6. */
    final boolean ipv6;

    private final Map<String, Pod> pods = new LinkedHashMap<>();

    private ConformanceCluster(SandboxFixture sandbox, boolean ipv6) {
        this.sandbox = sandbox;
        this.ipv6 = ipv6;
    }

    /**
     * Brings the sandbox up (dual-stack when {@code ipv6}) and applies the base fixture; waits until every pod runs.
     */
    static ConformanceCluster start(boolean ipv6) throws Exception {
        long t0 = System.nanoTime();
        ConformanceCluster c =
                new ConformanceCluster(ipv6 ? new SandboxFixture(NODES, true) : new SandboxFixture(NODES), ipv6);
        try {
            c.applyBase();
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
        LOG.info(
                "conformance fixture (prefix {}, {}) up in {} ms",
                c.sandbox.prefix,
                c.family(),
                (System.nanoTime() - t0) / 1_000_000);
        return c;
    }

    static String namespace(char house) {
        return NAMESPACE_PREFIX + HOUSES.get(house);
    }

    static String podName(char house, int replica) {
        return STATEFUL_SETS.get(house) + "-" + replica;
    }

    /** Node of each pod: G0 node-1, G1 node-2, S0 node-3, S1 node-1, ...; F0 node-1, F1 node-2. */
    static String nodeOf(char house, int replica) {
        int index = house == 'F' ? replica : "GSHR".indexOf(house) * 2 + replica;
        return "node-" + (index % NODES + 1);
    }

    private void applyBase() {
        for (char h : "GSHRF".toCharArray()) {
            sandbox.namespace(namespace(h), Map.of("conformance-house", HOUSES.get(h)));
        }
        for (char h : "GSHRF".toCharArray()) {
            for (int r = 0; r < 2; r++) {
                sandbox.client
                        .pods()
                        .inNamespace(namespace(h))
                        .resource(h == 'F' ? centaur(r) : student(h, r))
                        .create();
            }
        }
        for (char h : "GSHRF".toCharArray()) {
            for (int r = 0; r < 2; r++) {
                pods.put("" + h + r, sandbox.awaitRunning(namespace(h), podName(h, r)));
            }
        }
    }

    /** A G/S/H/R pod: the agnhost containers of the fixture, one per served port. */
    private static Pod student(char house, int replica) {
        String sts = STATEFUL_SETS.get(house);
        List<Container> containers = List.of(
                container(sts + "-client"),
                container(sts + "-80", port("TCP", 80, "web")),
                container(sts + "-8080", port("TCP", 8080, null)),
                container(sts + "-5353", port("UDP", 5353, null)),
                container(sts + "-53", port("UDP", 53, "dns")),
                container(sts + "-9003", port("SCTP", 9003, null)),
                container(sts + "-9005", port("SCTP", 9005, null)));
        return new PodBuilder()
                .withNewMetadata()
                .withName(podName(house, replica))
                .withNamespace(namespace(house))
                .addToLabels("conformance-house", HOUSES.get(house))
                .endMetadata()
                .withNewSpec()
                .withNodeName(nodeOf(house, replica))
                .withContainers(containers)
                .endSpec()
                .build();
    }

    /** A centaur: host network, so its pod IP is its node's IP; serves the host-network ports. */
    private static Pod centaur(int replica) {
        List<Integer> p = HOST_NETWORK_PORTS;
        List<Container> containers = List.of(
                container("centaur-tcp-" + p.get(0), port("TCP", p.get(0), "web-" + p.get(0))),
                container("centaur-tcp-" + p.get(1), port("TCP", p.get(1), "web-" + p.get(1))),
                container(
                        "centaur-udp-" + p.get(2),
                        port("UDP", p.get(2), "dns-" + p.get(2)),
                        port("TCP", p.get(3), null)),
                container(
                        "centaur-udp-" + p.get(4),
                        port("UDP", p.get(4), "dns-" + p.get(4)),
                        port("TCP", p.get(5), null)),
                container("centaur-sctp-" + p.get(6), port("SCTP", p.get(6), null)),
                container("centaur-sctp-" + p.get(7), port("SCTP", p.get(7), null)));
        return new PodBuilder()
                .withNewMetadata()
                .withName(podName('F', replica))
                .withNamespace(namespace('F'))
                .addToLabels("conformance-house", HOUSES.get('F'))
                .endMetadata()
                .withNewSpec()
                .withNodeName(nodeOf('F', replica))
                .withHostNetwork(true)
                .withContainers(containers)
                .endSpec()
                .build();
    }

    private static Container container(String name, ContainerPort... ports) {
        return new ContainerBuilder()
                .withName(name)
                .withImage("registry.k8s.io/e2e-test-images/agnhost:2.45")
                .withPorts(ports)
                .build();
    }

    private static ContainerPort port(String protocol, int number, String name) {
        return new ContainerPortBuilder()
                .withProtocol(protocol)
                .withContainerPort(number)
                .withName(name)
                .build();
    }

    /** The pod a probe reference like {@code G0} or {@code F1} names. */
    Pod pod(String ref) {
        Pod p = pods.get(ref);
        if (p == null) throw new IllegalArgumentException("no fixture pod " + ref);
        return p;
    }

    /** Puts every house label back (a test that relabels a namespace may have failed half-way). */
    void restoreNamespaceLabels() {
        for (char h : "GSHRF".toCharArray()) {
            var ns = sandbox.client.namespaces().withName(namespace(h)).get();
            if (!HOUSES.get(h).equals(ns.getMetadata().getLabels().get("conformance-house"))) {
                relabel(h, HOUSES.get(h));
            }
        }
    }

    /** Sets a namespace's {@code conformance-house} label (a merge patch). */
    void relabel(char house, String value) {
        sandbox.client
                .namespaces()
                .withName(namespace(house))
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"labels\":{\"conformance-house\":\"" + value + "\"}}}");
    }

    /** {@code IPv6} or {@code IPv4}: the family the probes use. */
    String family() {
        return ipv6 ? "IPv6" : "IPv4";
    }

    /** A pod's address of the cluster's family (a host-network pod's is its node's). */
    String address(Pod pod) {
        return pod.getStatus().getPodIPs().stream()
                .map(PodIP::getIp)
                .filter(ip -> ip.contains(":") == ipv6)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "pod " + pod.getMetadata().getName() + " has no " + family() + " address"));
    }

    List<Pod> pods() {
        return List.copyOf(pods.values());
    }

    /** {@code kovn trace}'s tracer on the cluster's zones, naming ANP and BANP rules from the API server. */
    PolicyTracer tracer() {
        return new PolicyTracer(
                nodes().getFirst().runtime(),
                node -> {
                    EmulatedNode n = node(node);
                    return new PolicyTracer.Zone(node, n.nbSocket(), n.sbSocket());
                },
                AclRules.AdminPolicies.fromApi(sandbox.client));
    }

    EmulatedNode node(String name) {
        return sandbox.sandbox.nodes().stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    List<EmulatedNode> nodes() {
        return new ArrayList<>(sandbox.sandbox.nodes());
    }

    @Override
    public void close() {
        sandbox.close();
    }
}
