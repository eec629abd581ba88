package io.kovn.identity.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Feeds malformed and randomly damaged AdmissionReview bodies (built from attacks that must be denied) to the HTTPS
 * endpoint: the answer is never 5xx and never an allow.
 */
class WebhookFuzzTest {
    private static WebhookFixture fixture;

    @BeforeContainer
    static void start() {
        fixture = new WebhookFixture(
                WebhookFixture.defaultPolicy(),
                n -> Optional.ofNullable(
                        Map.of("node1", "{\"default\":[\"10.244.1.0/24\"]}").get(n)));
    }

    @AfterContainer
    static void stop() throws Exception {
        fixture.close();
    }

    /** Attacks, each denied when sent intact: path and review. */
    private static List<Map.Entry<String, ObjectNode>> attacks() {
        ObjectNode node = Reviews.node("node1");
        ObjectNode pod = Reviews.pod("web", "node1", false);
        return List.of(
                Map.entry(
                        AdmissionHandler.NODE_PATH,
                        Reviews.update(
                                "system:ovn-node:node1",
                                Reviews.NODE_GROUPS,
                                node,
                                Reviews.changed(
                                        node,
                                        n -> Reviews.annotations(n)
                                                .put(WebhookPolicy.TRUST_ZONES, "{\"__default\":[\"tz9\"]}")))),
                Map.entry(
                        AdmissionHandler.NODE_PATH,
                        Reviews.update(
                                "system:ovn-node:node2",
                                Reviews.NODE_GROUPS,
                                node,
                                Reviews.changed(
                                        node, n -> Reviews.annotations(n).put("k8s.ovn.org/host-cidrs", "[]")))),
                Map.entry(
                        AdmissionHandler.NODE_PATH,
                        Reviews.update(
                                "system:ovn-node:node1",
                                Reviews.NODE_GROUPS,
                                node,
                                Reviews.changed(
                                        node,
                                        n -> Reviews.annotations(n).put(WebhookPolicy.NODE_CHASSIS_ID, "other")))),
                Map.entry(
                        AdmissionHandler.POD_PATH,
                        Reviews.update(
                                "system:ovn-node:node1",
                                Reviews.NODE_GROUPS,
                                pod,
                                Reviews.changed(
                                        pod,
                                        p -> Reviews.annotations(p)
                                                .put(
                                                        WebhookPolicy.POD_NETWORKS,
                                                        Reviews.podNetworks("10.9.9.9/24"))))));
    }

    @Property(tries = 300)
    void randomBytesAreRejected(@ForAll("paths") String path, @ForAll byte[] body) {
        assertNeverAllowedNor5xx(path, body);
    }

    @Property(tries = 300)
    void truncatedAttacksAreRejected(@ForAll("attackIndex") int attack, @ForAll("fraction") double fraction) {
        Map.Entry<String, ObjectNode> entry = attacks().get(attack);
        byte[] full = entry.getValue().toString().getBytes(StandardCharsets.UTF_8);
        byte[] cut = Arrays.copyOf(full, (int) (full.length * fraction));
        assertNeverAllowedNor5xx(entry.getKey(), cut);
    }

    @Property(tries = 400)
    void attacksWithAWrongTypedFieldAreNeverAllowed(
            @ForAll("attackIndex") int attack, @ForAll("seed") int pick, @ForAll("wrongValue") JsonNode value) {
        Map.Entry<String, ObjectNode> entry = attacks().get(attack);
        ObjectNode review = entry.getValue();
        List<Map.Entry<ContainerNode<?>, Object>> slots = new ArrayList<>();
        collect(review, slots);
        Map.Entry<ContainerNode<?>, Object> slot = slots.get(Math.floorMod(pick, slots.size()));
        JsonNode old = slot.getKey() instanceof ObjectNode o
                ? o.get((String) slot.getValue())
                : ((ArrayNode) slot.getKey()).get((Integer) slot.getValue());
        if (old.getNodeType() == value.getNodeType()) {
            return; // same type: not a damaged field
        }
        if (slot.getKey() instanceof ObjectNode o) {
            o.set((String) slot.getValue(), value);
        } else {
            ((ArrayNode) slot.getKey()).set((Integer) slot.getValue(), value);
        }
        assertNeverAllowedNor5xx(entry.getKey(), review.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Property(tries = 200)
    void attacksMissingAnEnvelopeFieldAreRejected(
            @ForAll("attackIndex") int attack, @ForAll("envelopeField") String pointer) {
        Map.Entry<String, ObjectNode> entry = attacks().get(attack);
        ObjectNode review = entry.getValue();
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = review.at(pointer.substring(0, slash));
        ((ObjectNode) parent).remove(pointer.substring(slash + 1));
        HttpResponse<byte[]> response =
                fixture.post(entry.getKey(), review.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).isEqualTo(400);
    }

    @Property(tries = 200)
    void randomJsonIsRejected(@ForAll("paths") String path, @ForAll("json") JsonNode body) {
        assertNeverAllowedNor5xx(path, body.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void collect(JsonNode node, List<Map.Entry<ContainerNode<?>, Object>> slots) {
        if (node instanceof ObjectNode object) {
            object.properties().forEach(e -> {
                slots.add(Map.entry(object, e.getKey()));
                collect(e.getValue(), slots);
            });
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                slots.add(Map.entry(array, i));
                collect(array.get(i), slots);
            }
        }
    }

    private static void assertNeverAllowedNor5xx(String path, byte[] body) {
        HttpResponse<byte[]> response = fixture.post(path, body);
        assertThat(response.statusCode()).isLessThan(500);
        if (response.statusCode() == 200) {
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"allowed\":false");
        } else {
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).isNotEmpty();
        }
    }

    @Provide
    Arbitrary<String> paths() {
        return Arbitraries.of(AdmissionHandler.NODE_PATH, AdmissionHandler.POD_PATH);
    }

    @Provide
    Arbitrary<Integer> attackIndex() {
        return Arbitraries.integers().between(0, attacks().size() - 1);
    }

    @Provide
    Arbitrary<Integer> seed() {
        return Arbitraries.integers().between(0, 10_000);
    }

    @Provide
    Arbitrary<Double> fraction() {
        return Arbitraries.doubles().between(0, 0.99);
    }

    @Provide
    Arbitrary<String> envelopeField() {
        return Arbitraries.of(
                "/apiVersion",
                "/kind",
                "/request",
                "/request/uid",
                "/request/kind",
                "/request/kind/kind",
                "/request/operation",
                "/request/userInfo",
                "/request/userInfo/username",
                "/request/object",
                "/request/oldObject",
                "/request/object/metadata/name");
    }

    @Provide
    Arbitrary<JsonNode> wrongValue() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return Arbitraries.oneOf(
                Arbitraries.integers().map(f::numberNode),
                Arbitraries.of(true, false).map(f::booleanNode),
                Arbitraries.just(f.nullNode()),
                Arbitraries.just(f.arrayNode()),
                Arbitraries.just(f.objectNode()),
                Arbitraries.strings().ofMaxLength(20).map(f::textNode));
    }

    @Provide
    Arbitrary<JsonNode> json() {
        return json(3);
    }

    private static Arbitrary<JsonNode> json(int depth) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        Arbitrary<JsonNode> leaf = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(30).map(f::textNode),
                Arbitraries.of("admission.k8s.io/v1", "AdmissionReview", "UPDATE", "Node", "system:ovn-node:node1")
                        .map(f::textNode),
                Arbitraries.integers().map(f::numberNode),
                Arbitraries.just(f.nullNode()));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<String> keys = Arbitraries.oneOf(
                Arbitraries.of(
                        "apiVersion",
                        "kind",
                        "request",
                        "uid",
                        "operation",
                        "userInfo",
                        "username",
                        "object",
                        "oldObject",
                        "metadata",
                        "annotations",
                        "name"),
                Arbitraries.strings().alpha().ofMaxLength(8));
        Arbitrary<JsonNode> object = Combinators.combine(
                        keys.list().ofMaxSize(5), json(depth - 1).list().ofMaxSize(5))
                .as((ks, vs) -> {
                    ObjectNode node = f.objectNode();
                    for (int i = 0; i < Math.min(ks.size(), vs.size()); i++) {
                        node.set(ks.get(i), vs.get(i));
                    }
                    return node;
                });
        return Arbitraries.oneOf(
                leaf,
                object,
                json(depth - 1).list().ofMaxSize(4).map(l -> f.arrayNode().addAll(l)));
    }
}
