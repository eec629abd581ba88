package io.kovn.identity.webhook;

import static io.kovn.identity.webhook.Reviews.annotations;
import static io.kovn.identity.webhook.Reviews.changed;
import static io.kovn.identity.webhook.Reviews.pod;
import static io.kovn.identity.webhook.Reviews.podNetworks;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every Pod rule, allowed and denied, through the real HTTPS endpoint with kube-apiserver's review JSON. */
class PodWebhookTest {
    private static final String ADMIN = "kubernetes-admin";
    private static final String EXTRA = "system:serviceaccount:ovn-kubernetes:ovnkube-node";
    private static final Map<String, String> SUBNETS = Map.of(
            "node1", "{\"default\":[\"10.244.1.0/24\"]}",
            "dual",
                    "{\"default\":[\"10.244.2.0/24\",\"fd00:10:244:2::/64\"],\"blue_net\":[\"10.10.2.0/24\"],\"cluster_udn_red\":[\"10.20.2.0/24\"]}",
            "legacy", "{\"default\":\"10.244.3.0/24\"}");
    private static WebhookFixture fixture;

    @BeforeAll
    static void start() {
        fixture = new WebhookFixture(WebhookFixture.defaultPolicy(), node -> Optional.ofNullable(SUBNETS.get(node)));
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
    }

    record Case(String user, String oldNode, String newNode, boolean hostNetwork, Consumer<ObjectNode> change) {
        @Override
        public String toString() {
            return user;
        }
    }

    private static Case node(String self, String podNode, Consumer<ObjectNode> change) {
        return new Case("system:ovn-node:" + self, podNode, podNode, false, change);
    }

    private static Consumer<ObjectNode> networks(String... ips) {
        return p -> annotations(p).put(WebhookPolicy.POD_NETWORKS, podNetworks(ips));
    }

    static Stream<Arguments> allowed() {
        return Stream.of(
                Arguments.of(
                        "node sets pod-networks inside its subnet", node("node1", "node1", networks("10.244.1.3/24"))),
                Arguments.of(
                        "dual-stack IPs inside both subnets",
                        node("dual", "dual", networks("10.244.2.9/24", "fd00:10:244:2::9/64"))),
                Arguments.of(
                        "a secondary network inside its subnet",
                        node(
                                "dual",
                                "dual",
                                p -> annotations(p)
                                        .put(
                                                WebhookPolicy.POD_NETWORKS,
                                                "{\"default\":{\"ip_addresses\":[\"10.244.2.4/24\"]},\"blue/net\":{\"ip_addresses\":[\"10.10.2.4/24\"]}}"))),
                Arguments.of(
                        "a ClusterUserDefinedNetwork's entry inside its subnet",
                        node(
                                "dual",
                                "dual",
                                p -> annotations(p)
                                        .put(
                                                WebhookPolicy.POD_NETWORKS,
                                                "{\"default\":{\"ip_addresses\":[\"10.244.2.4/24\"]},\"team-a/red\":{\"ip_addresses\":[\"10.20.2.4/24\"]}}"))),
                Arguments.of(
                        "legacy single-string node-subnets", node("legacy", "legacy", networks("10.244.3.200/24"))),
                Arguments.of(
                        "node sets dpu connection details",
                        node("node1", "node1", p -> annotations(p).put("k8s.ovn.org/dpu.connection-details", "{}"))),
                Arguments.of(
                        "node sets dpu connection status",
                        node("node1", "node1", p -> annotations(p).put("k8s.ovn.org/dpu.connection-status", "{}"))),
                Arguments.of("node changes nothing", node("node1", "node1", p -> {})),
                Arguments.of(
                        "admin sets any pod-networks",
                        new Case(ADMIN, "node1", "node1", false, networks("192.168.9.9/24"))),
                Arguments.of(
                        "admin changes labels",
                        new Case(
                                ADMIN,
                                "node1",
                                "node1",
                                false,
                                p -> ((ObjectNode) p.get("metadata").get("labels")).put("x", "y"))),
                Arguments.of(
                        "extra allowed user sets IPs inside the pod's node subnet",
                        new Case(EXTRA, "node1", "node1", false, networks("10.244.1.77/24"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allowed")
    void allows(String why, Case c) {
        assertThat(send(c).allowed()).as(why).isTrue();
    }

    static Stream<Arguments> denied() {
        return Stream.of(
                Arguments.of(
                        "pod IP outside the node's subnet",
                        node("node1", "node1", networks("10.244.2.3/24")),
                        "10.244.2.3 does not belong to node node1"),
                Arguments.of(
                        "one of two IPs outside",
                        node("dual", "dual", networks("10.244.2.9/24", "fd00:10:244:3::9/64")),
                        "does not belong"),
                Arguments.of(
                        "secondary network IP outside its subnet",
                        node(
                                "dual",
                                "dual",
                                p -> annotations(p)
                                        .put(
                                                WebhookPolicy.POD_NETWORKS,
                                                "{\"default\":{\"ip_addresses\":[\"10.244.2.4/24\"]},\"blue/net\":{\"ip_addresses\":[\"10.10.9.4/24\"]}}")),
                        "does not belong"),
                Arguments.of(
                        "a ClusterUserDefinedNetwork's entry outside its subnet",
                        node(
                                "dual",
                                "dual",
                                p -> annotations(p)
                                        .put(
                                                WebhookPolicy.POD_NETWORKS,
                                                "{\"default\":{\"ip_addresses\":[\"10.244.2.4/24\"]},\"team-a/red\":{\"ip_addresses\":[\"10.20.7.4/24\"]}}")),
                        "does not belong"),
                Arguments.of(
                        "pod-networks without a default network",
                        node("node1", "node1", p -> annotations(p).put(WebhookPolicy.POD_NETWORKS, "{}")),
                        "no default network"),
                Arguments.of(
                        "pod on another node",
                        node("node1", "node2", networks("10.244.1.3/24")),
                        "not allowed to modify pod"),
                Arguments.of(
                        "pod moved onto its node",
                        new Case("system:ovn-node:node1", "node2", "node1", false, networks("10.244.1.3/24")),
                        "not allowed to modify pod"),
                Arguments.of(
                        "pod-networks on a host-network pod",
                        new Case("system:ovn-node:node1", "node1", "node1", true, networks("10.244.1.3/24")),
                        "host-network"),
                Arguments.of(
                        "node sets a foreign annotation",
                        node("node1", "node1", p -> annotations(p).put("k8s.v1.cni.cncf.io/network-status", "[]")),
                        "k8s.v1.cni.cncf.io/network-status"),
                Arguments.of(
                        "node sets trust-zones on a pod",
                        node("node1", "node1", p -> annotations(p).put(WebhookPolicy.TRUST_ZONES, "{}")),
                        "trust-zones"),
                Arguments.of(
                        "node changes labels",
                        node(
                                "node1",
                                "node1",
                                p -> ((ObjectNode) p.get("metadata").get("labels")).put("app", "db")),
                        "anything other than annotations"),
                Arguments.of(
                        "node changes status",
                        node("node1", "node1", p -> ((ObjectNode) p.get("status")).put("podIP", "10.244.1.99")),
                        "anything other than annotations"),
                Arguments.of(
                        "node without node-subnets",
                        node("node3", "node3", networks("10.244.1.3/24")),
                        "has no k8s.ovn.org/node-subnets"),
                Arguments.of(
                        "malformed pod-networks",
                        node("node1", "node1", p -> annotations(p).put(WebhookPolicy.POD_NETWORKS, "{not json")),
                        "not valid JSON"),
                Arguments.of(
                        "pod-networks with a host name instead of an IP",
                        node("node1", "node1", networks("localhost/24")),
                        "not an IP address"),
                Arguments.of(
                        "extra allowed user sets IPs outside the pod's node subnet",
                        new Case(EXTRA, "node1", "node1", false, networks("10.244.9.1/24")),
                        "does not belong"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("denied")
    void denies(String why, Case c, String message) {
        WebhookFixture.Verdict verdict = send(c);
        assertThat(verdict.allowed()).as(why).isFalse();
        assertThat(verdict.message()).contains(message);
    }

    private static WebhookFixture.Verdict send(Case c) {
        ObjectNode before = pod("web-1", c.oldNode(), c.hostNetwork());
        ObjectNode after = changed(before, p -> {
            ((ObjectNode) p.get("spec")).put("nodeName", c.newNode());
            c.change().accept(p);
        });
        List<String> groups =
                c.user().startsWith("system:ovn-node:") ? Reviews.NODE_GROUPS : List.of("system:authenticated");
        return fixture.review(AdmissionHandler.POD_PATH, Reviews.update(c.user(), groups, before, after));
    }
}
