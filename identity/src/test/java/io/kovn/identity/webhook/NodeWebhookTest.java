package io.kovn.identity.webhook;

import static io.kovn.identity.webhook.Reviews.annotations;
import static io.kovn.identity.webhook.Reviews.changed;
import static io.kovn.identity.webhook.Reviews.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every Node rule, allowed and denied, through the real HTTPS endpoint with kube-apiserver's review JSON. */
class NodeWebhookTest {
    private static final String NODE1 = "system:ovn-node:node1";
    private static final String ADMIN = "kubernetes-admin";
    private static final String EXTRA = "system:serviceaccount:ovn-kubernetes:ovnkube-node";
    private static WebhookFixture fixture;

    @BeforeAll
    static void start() {
        fixture = new WebhookFixture(WebhookFixture.defaultPolicy(), node -> Optional.empty());
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
    }

    record Case(String user, List<String> groups, String nodeName, Consumer<ObjectNode> change) {
        @Override
        public String toString() {
            return user + " on " + nodeName;
        }
    }

    private static Case as(String user, String nodeName, Consumer<ObjectNode> change) {
        return new Case(
                user,
                user.startsWith("system:ovn-node:")
                        ? Reviews.NODE_GROUPS
                        : List.of("system:masters", "system:authenticated"),
                nodeName,
                change);
    }

    private static Consumer<ObjectNode> annotate(String key, String value) {
        return n -> annotations(n).put(key, value);
    }

    static Stream<Arguments> allowed() {
        Stream<Arguments> everyAllowedKey = WebhookFixture.defaultPolicy().nodeAnnotationKeys().stream()
                .filter(k -> !k.equals(WebhookPolicy.NODE_CHASSIS_ID))
                .map(k -> Arguments.of("node sets its own " + k, as(NODE1, "node1", annotate(k, "{\"x\":1}"))));
        return Stream.concat(
                everyAllowedKey,
                Stream.of(
                        Arguments.of("node adds its chassis id", addChassisCase()),
                        Arguments.of(
                                "node writes the same chassis id again",
                                as(
                                        NODE1,
                                        "node1",
                                        annotate(
                                                WebhookPolicy.NODE_CHASSIS_ID,
                                                "8a3b1c2d-0000-4000-8000-000000000001"))),
                        Arguments.of(
                                "node update touching only managedFields",
                                as(
                                        NODE1,
                                        "node1",
                                        n -> ((ObjectNode) n.get("metadata")
                                                        .get("managedFields")
                                                        .get(0))
                                                .put("time", "2026-11-21T06:10:00Z"))),
                        Arguments.of(
                                "admin edits trust-zones",
                                as(ADMIN, "node1", annotate(WebhookPolicy.TRUST_ZONES, "{\"__default\":[\"tz1\"]}"))),
                        Arguments.of("admin changes labels and chassis id", as(ADMIN, "node1", n -> {
                            ((ObjectNode) n.get("metadata").get("labels")).put("zone", "a");
                            annotations(n).put(WebhookPolicy.NODE_CHASSIS_ID, "other");
                        })),
                        Arguments.of(
                                "extra allowed user sets a node annotation on any node",
                                as(EXTRA, "node7", annotate("k8s.ovn.org/l3-gateway-config", "{}")))));
    }

    private static Case addChassisCase() {
        return new Case(NODE1, Reviews.NODE_GROUPS, "fresh-node1", null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allowed")
    void allows(String why, Case c) {
        assertThat(send(c).allowed()).as(why).isTrue();
    }

    static Stream<Arguments> denied() {
        return Stream.of(
                Arguments.of(
                        "node editing another node",
                        as(NODE1, "node2", annotate("k8s.ovn.org/l3-gateway-config", "{}")),
                        "not allowed to modify node node2"),
                Arguments.of(
                        "node editing trust-zones on its own node",
                        as(NODE1, "node1", annotate(WebhookPolicy.TRUST_ZONES, "{\"__default\":[\"tz1\"]}")),
                        "k8s.ovn.org/trust-zones"),
                Arguments.of(
                        "node changing its chassis id",
                        as(NODE1, "node1", annotate(WebhookPolicy.NODE_CHASSIS_ID, "evil")),
                        "cannot be changed"),
                Arguments.of(
                        "node removing its chassis id",
                        as(NODE1, "node1", n -> annotations(n).remove(WebhookPolicy.NODE_CHASSIS_ID)),
                        "cannot be removed"),
                Arguments.of(
                        "node changing labels",
                        as(
                                NODE1,
                                "node1",
                                n -> ((ObjectNode) n.get("metadata").get("labels"))
                                        .put("node-role.kubernetes.io/control-plane", "")),
                        "anything other than annotations"),
                Arguments.of(
                        "node changing spec",
                        as(NODE1, "node1", n -> ((ObjectNode) n.get("spec")).put("unschedulable", true)),
                        "anything other than annotations"),
                Arguments.of(
                        "node changing status",
                        as(
                                NODE1,
                                "node1",
                                n -> ((ObjectNode)
                                                n.get("status").get("addresses").get(0))
                                        .put("address", "10.0.0.66")),
                        "anything other than annotations"),
                Arguments.of(
                        "node setting its own subnets",
                        as(NODE1, "node1", annotate(WebhookPolicy.NODE_SUBNETS, "{\"default\":[\"0.0.0.0/0\"]}")),
                        "k8s.ovn.org/node-subnets"),
                Arguments.of(
                        "node setting its node id",
                        as(NODE1, "node1", annotate("k8s.ovn.org/node-id", "2")),
                        "k8s.ovn.org/node-id"),
                Arguments.of(
                        "node setting a foreign annotation",
                        as(NODE1, "node1", annotate("example.com/owner", "me")),
                        "example.com/owner"),
                Arguments.of(
                        "node identity without its group editing another node",
                        new Case(
                                NODE1,
                                List.of("system:authenticated"),
                                "node2",
                                annotate("k8s.ovn.org/host-cidrs", "[]")),
                        "not allowed to modify node node2"),
                Arguments.of(
                        "extra allowed user changing a chassis id",
                        as(EXTRA, "node1", annotate(WebhookPolicy.NODE_CHASSIS_ID, "evil")),
                        "cannot be changed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("denied")
    void denies(String why, Case c, String message) {
        WebhookFixture.Verdict verdict = send(c);
        assertThat(verdict.allowed()).as(why).isFalse();
        assertThat(verdict.message()).contains(message);
    }

    private static WebhookFixture.Verdict send(Case c) {
        ObjectNode before = node(c.nodeName().replace("fresh-", ""));
        if (c.change() == null) {
            // A fresh node: no chassis id yet, the agent adds it.
            annotations(before).remove(WebhookPolicy.NODE_CHASSIS_ID);
            ObjectNode after =
                    changed(before, annotate(WebhookPolicy.NODE_CHASSIS_ID, "8a3b1c2d-0000-4000-8000-000000000001"));
            return fixture.review(AdmissionHandler.NODE_PATH, Reviews.update(c.user(), c.groups(), before, after));
        }
        return fixture.review(
                AdmissionHandler.NODE_PATH, Reviews.update(c.user(), c.groups(), before, changed(before, c.change())));
    }
}
