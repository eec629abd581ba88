package io.kovn.identity.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed input gets 400 with a message: never 5xx, never an allow. */
class BadInputTest {
    private static final int LIMIT = 64 * 1024;
    private static WebhookFixture fixture;

    @BeforeAll
    static void start() {
        fixture =
                new WebhookFixture(WebhookFixture.defaultPolicy(), n -> Optional.empty(), LIMIT, Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
    }

    /** A node identity editing trust-zones on its own node: denied when well-formed. */
    static ObjectNode attack() {
        ObjectNode before = Reviews.node("node1");
        ObjectNode after = Reviews.changed(before, n -> Reviews.annotations(n).put(WebhookPolicy.TRUST_ZONES, "{}"));
        return Reviews.update("system:ovn-node:node1", Reviews.NODE_GROUPS, before, after);
    }

    private static Arguments edit(String why, Consumer<ObjectNode> change, String message) {
        ObjectNode review = attack();
        change.accept(review);
        return Arguments.of(why, review.toString(), message);
    }

    private static ObjectNode request(ObjectNode review) {
        return (ObjectNode) review.get("request");
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("empty body", "", "empty body"),
                Arguments.of("truncated JSON", attack().toString().substring(0, 100), "malformed JSON"),
                Arguments.of("JSON null", "null", "not a JSON object"),
                Arguments.of("JSON array", "[]", "not a JSON object"),
                Arguments.of("trailing garbage", attack() + " {}", "malformed JSON"),
                Arguments.of(
                        "duplicate username key",
                        attack().toString()
                                .replace(
                                        "\"username\":\"system:ovn-node:node1\"",
                                        "\"username\":\"system:ovn-node:node1\",\"username\":\"admin\""),
                        "Duplicate field"),
                Arguments.of("deep nesting", "[".repeat(5000), "malformed JSON"),
                Arguments.of("not UTF-8", "\u00ff\u00fe".repeat(3), "malformed JSON"),
                edit(
                        "apiVersion v1beta1",
                        r -> r.put("apiVersion", "admission.k8s.io/v1beta1"),
                        "apiVersion must be admission.k8s.io/v1"),
                edit("kind Status", r -> r.put("kind", "Status"), "kind must be AdmissionReview"),
                edit("no request", r -> r.remove("request"), "missing object request"),
                edit("uid missing", r -> request(r).remove("uid"), "missing string uid"),
                edit("uid is a number", r -> request(r).put("uid", 7), "not a string: uid"),
                edit("uid empty", r -> request(r).put("uid", ""), "uid is empty"),
                edit("kind missing", r -> request(r).remove("kind"), "missing object kind"),
                edit(
                        "Pod sent to /node",
                        r -> ((ObjectNode) request(r).get("kind")).put("kind", "Pod"),
                        "kind Pod sent to the Node webhook"),
                edit("operation missing", r -> request(r).remove("operation"), "missing string operation"),
                edit("userInfo missing", r -> request(r).remove("userInfo"), "missing object userInfo"),
                edit(
                        "username is a list",
                        r -> ((ObjectNode) request(r).get("userInfo")).putArray("username"),
                        "not a string: username"),
                edit(
                        "groups is a string",
                        r -> ((ObjectNode) request(r).get("userInfo")).put("groups", "system:masters"),
                        "groups is not a list"),
                edit(
                        "group is a number",
                        r -> ((ObjectNode) request(r).get("userInfo"))
                                .putArray("groups")
                                .add(1),
                        "non-string"),
                edit("object missing", r -> request(r).remove("object"), "missing object object"),
                edit("oldObject missing", r -> request(r).remove("oldObject"), "missing object oldObject"),
                edit("object is a string", r -> request(r).put("object", "{}"), "not an object: object"),
                edit(
                        "metadata is a list",
                        r -> ((ObjectNode) request(r).get("object")).putArray("metadata"),
                        "metadata is not an object"),
                edit(
                        "name missing",
                        r -> ((ObjectNode) request(r).get("object").get("metadata")).remove("name"),
                        "missing string name"),
                edit(
                        "annotations is a list",
                        r -> ((ObjectNode) request(r).get("object").get("metadata")).putArray("annotations"),
                        "annotations is not an object"),
                edit(
                        "annotation value is a number",
                        r -> Reviews.annotations((ObjectNode) request(r).get("object"))
                                .put(WebhookPolicy.TRUST_ZONES, 1),
                        "is not a string"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void answersBadRequest(String why, String body, String message) {
        HttpResponse<byte[]> response =
                fixture.post(AdmissionHandler.NODE_PATH, body.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(response.statusCode()).as(why).isEqualTo(400);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains(message);
    }

    @Test
    void refusesBodiesOverTheLimit() {
        ObjectNode review = attack();
        Reviews.annotations((ObjectNode) request(review).get("object")).put("padding", "x".repeat(LIMIT));
        HttpResponse<byte[]> response =
                fixture.post(AdmissionHandler.NODE_PATH, review.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("larger than " + LIMIT);
    }

    /** A --client-ca-file that holds no certificate stops the start, naming the file, instead of trusting nobody. */
    @Test
    void aClientCaFileWithoutACertificateIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path notACa = Files.writeString(dir.resolve("client-ca.crt"), "not a certificate\n");
        var settings = new AdmissionWebhook.Settings(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                fixture.certFile(),
                fixture.keyFile(),
                LIMIT,
                Duration.ofSeconds(1),
                notACa);
        assertThatThrownBy(() -> AdmissionWebhook.start(
                        settings, new AdmissionHandler(WebhookFixture.defaultPolicy(), n -> Optional.empty())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no CERTIFICATE in the CA file " + notACa);
    }

    @Test
    void wellFormedAttackIsDeniedNotRejected() {
        assertThat(fixture.review(AdmissionHandler.NODE_PATH, attack()).allowed())
                .isFalse();
    }

    @Test
    void healthAndWrongMethodsAndPaths() throws Exception {
        HttpResponse<String> health = fixture.client.send(
                HttpRequest.newBuilder(fixture.uri("/healthz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("ok\n");
        HttpResponse<String> get = fixture.client.send(
                HttpRequest.newBuilder(fixture.uri("/node")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(fixture.post("/nodes", attack().toString().getBytes(StandardCharsets.UTF_8))
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void idleAndSlowClientsDoNotStallTheWebhook() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                Socket s = new Socket(
                        InetAddress.getLoopbackAddress(),
                        fixture.webhook.address().getPort());
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01}); // the start of a TLS record, then nothing
                s.getOutputStream().flush();
                idle.add(s);
            }
            long start = System.nanoTime();
            HttpResponse<String> health = fixture.client.send(
                    HttpRequest.newBuilder(fixture.uri("/healthz"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        } finally {
            for (Socket s : idle) s.close();
        }
    }
}
