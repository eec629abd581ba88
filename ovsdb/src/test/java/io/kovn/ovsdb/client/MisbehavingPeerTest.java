package io.kovn.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.JsonFramer;
import io.kovn.ovsdb.wire.ProtocolException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A scripted peer in place of the server: split frames, garbage, silence; the client never hangs. */
@Timeout(20)
class MisbehavingPeerTest {
    private ServerSocket server;
    private Thread peer;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (peer != null) {
            peer.interrupt();
            peer.join(2000);
        }
    }

    interface Script {
        void run(InputStream in, OutputStream out, BlockingQueue<JsonNode> requests) throws Exception;
    }

    private OvsdbClient connect(Script script) throws IOException {
        return connect(script, Duration.ofSeconds(5));
    }

    private OvsdbClient connect(Script script, Duration probe) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        peer = Thread.ofVirtual().start(() -> {
            try (Socket s = server.accept()) {
                BlockingQueue<JsonNode> requests = new LinkedBlockingQueue<>();
                InputStream in = s.getInputStream();
                Thread.ofVirtual().start(() -> {
                    JsonFramer f = new JsonFramer();
                    byte[] buf = new byte[4096];
                    try {
                        for (int n; (n = in.read(buf)) > 0; ) {
                            f.feed(buf, 0, n, b -> requests.add(Json.parse(b)));
                        }
                    } catch (IOException | RuntimeException ignored) {
                        // the test ends the connection
                    }
                });
                script.run(in, s.getOutputStream(), requests);
                Thread.sleep(60_000);
            } catch (Exception ignored) {
                // closed by the test
            }
        });
        return OvsdbClient.builder()
                .endpoint("tcp:127.0.0.1:" + server.getLocalPort())
                .timeout(Duration.ofSeconds(2))
                .backoff(Duration.ofSeconds(30), Duration.ofSeconds(30))
                .inactivityProbe(probe)
                .connect();
    }

    private static void oneByteAtATime(OutputStream out, String text) throws Exception {
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.write(b);
            out.flush();
        }
    }

    @Test
    void assemblesAResponseSentOneByteAtATime() throws Exception {
        try (OvsdbClient c = connect((in, out, requests) -> {
            JsonNode req = requests.take();
            oneByteAtATime(out, "  {\"id\":" + req.get("id") + ",\"result\":[\"A\",\"B \\\" }\"],\"error\":null}\n");
        })) {
            assertThat(c.listDbs()).containsExactly("A", "B \" }");
        }
    }

    @Test
    void answersTheServersEcho() throws Exception {
        BlockingQueue<JsonNode> seen = new LinkedBlockingQueue<>();
        try (OvsdbClient c = connect((in, out, requests) -> {
            oneByteAtATime(out, "{\"method\":\"echo\",\"params\":[\"ping\"],\"id\":\"echo\"}");
            seen.add(requests.take());
        })) {
            JsonNode reply = seen.poll(5, TimeUnit.SECONDS);
            assertThat(reply).isNotNull();
            assertThat(reply.get("id").asText()).isEqualTo("echo");
            assertThat(Json.text(reply.get("result"))).isEqualTo("[\"ping\"]");
            assertThat(c.isConnected()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "garbage\n",
                "[1,2,3]",
                "{\"id\":1,\"result\":}",
                "{\"id\":1}",
                "{\"id\":1,\"result\":[\"A\"],\"error\":null}}",
            })
    void garbageOnTheWireFailsThePendingRequestWithoutHanging(String garbage) throws Exception {
        try (OvsdbClient c = connect((in, out, requests) -> {
            requests.take();
            oneByteAtATime(out, garbage);
        })) {
            if (garbage.endsWith("}}")) {
                // the valid message before the stray brace is still delivered
                assertThat(c.listDbs()).containsExactly("A");
                Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !c.isConnected());
                return;
            }
            assertThatThrownBy(c::listDbs)
                    .isInstanceOf(ConnectionException.class)
                    .satisfies(e -> assertThat(causes(e)).hasAtLeastOneElementOfType(ProtocolException.class));
            assertThat(c.isConnected()).isFalse();
        }
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (; t != null; t = t.getCause()) {
            out.add(t);
        }
        return out;
    }

    @Test
    void aPeerThatClosesMidMessageFailsTheRequest() throws Exception {
        try (OvsdbClient c = connect((in, out, requests) -> {
            requests.take();
            oneByteAtATime(out, "{\"id\":1,\"result\":[\"A\"");
            out.close();
        })) {
            assertThatThrownBy(c::listDbs)
                    .isInstanceOf(ConnectionException.class)
                    .hasRootCauseMessage("connection closed inside a message");
        }
    }

    @Test
    void aPeerThatNeverAnswersTheInactivityProbeIsDisconnected() throws Exception {
        try (OvsdbClient c = connect((in, out, requests) -> {}, Duration.ofMillis(200))) {
            assertThat(c.isConnected()).isTrue();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !c.isConnected());
        }
    }

    @Test
    void aPeerThatAnswersTheInactivityProbeStaysConnected() throws Exception {
        try (OvsdbClient c = connect(
                (in, out, requests) -> {
                    for (int i = 0; i < 10; i++) {
                        JsonNode req = requests.take();
                        out.write(("{\"id\":" + req.get("id") + ",\"result\":[],\"error\":null}")
                                .getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                },
                Duration.ofMillis(100))) {
            Thread.sleep(800); // several probe periods: the echo answers keep the session alive
            assertThat(c.isConnected()).isTrue();
        }
    }

    @Test
    void aSilentPeerTimesOut() throws Exception {
        try (OvsdbClient c = connect((in, out, requests) -> requests.take())) {
            long t0 = System.nanoTime();
            assertThatThrownBy(c::listDbs).isInstanceOf(OvsdbTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        }
    }
}
