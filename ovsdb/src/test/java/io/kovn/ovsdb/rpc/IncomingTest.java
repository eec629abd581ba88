package io.kovn.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.ProtocolException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Messages are read in one pass whatever the order of their members: a notification's params and a response's result
 * reach their reader the same in ovsdb-server's order and in any other.
 */
@Timeout(10)
class IncomingTest {
    private final ScriptedPeer peer = new ScriptedPeer();
    private final BlockingQueue<String> notified = new LinkedBlockingQueue<>();
    private final RpcSession session = new RpcSession(
                    peer,
                    (RawNotifications) (method, params) ->
                            // read as a stream, the way the monitor cache does
                            notified.add(method + " " + params.read(p -> Json.MAPPER.readTree(p))),
                    Duration.ofSeconds(5))
            .start();

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void notificationParamsAreTheSameInEveryMemberOrder() throws Exception {
        String params = "[\"m\",{\"T\":{\"u\":{\"insert\":{\"s\":\"a\\\"}\"}}}}]";
        peer.send("{\"id\":null,\"method\":\"update2\",\"params\":" + params + "}");
        peer.send("{\"params\":" + params + ",\"method\":\"update2\",\"id\":null}");
        peer.send("{\"method\":\"update2\",\"params\":" + params + "}"); // no id at all: a notification too
        String expected = "update2 " + Json.parse(params);
        for (int i = 0; i < 3; i++) {
            assertThat(notified.poll(5, TimeUnit.SECONDS)).isEqualTo(expected);
        }
    }

    @Test
    void aResultReachesItsReaderInEitherOrder() throws Exception {
        CompletableFuture<List<String>> first = session.call("list_dbs", Json.array(), IncomingTest::strings);
        CompletableFuture<List<String>> second = session.call("list_dbs", Json.array(), IncomingTest::strings);
        peer.send("{\"id\":1,\"result\":[\"A\",\"B\"],\"error\":null}");
        peer.send("{\"result\":[\"C\"],\"error\":null,\"id\":2}");
        assertThat(first.get(5, TimeUnit.SECONDS)).containsExactly("A", "B");
        assertThat(second.get(5, TimeUnit.SECONDS)).containsExactly("C");
    }

    @Test
    void anErrorAfterTheResultFailsTheRequest() {
        CompletableFuture<List<String>> f = session.call("list_dbs", Json.array(), IncomingTest::strings);
        peer.send("{\"id\":1,\"result\":[\"A\"],\"error\":\"boom\"}");
        assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RpcErrorException.class);
    }

    @Test
    void aResultItsReaderRefusesFailsTheRequestNotTheSession() throws Exception {
        CompletableFuture<List<String>> bad = session.call("list_dbs", Json.array(), p -> {
            throw new ProtocolException("not what a list_dbs result is");
        });
        peer.send("{\"id\":1,\"result\":[\"A\"],\"error\":null}");
        assertThatThrownBy(() -> bad.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(ProtocolException.class);
        CompletableFuture<JsonNode> next = session.call("list_dbs", Json.array());
        peer.send("{\"id\":2,\"result\":[\"B\"],\"error\":null}");
        assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(Json.parse("[\"B\"]"));
        assertThat(session.isOpen()).isTrue();
    }

    @Test
    void aSyntaxErrorInsideAResultEndsTheSession() throws Exception {
        CompletableFuture<List<String>> f = session.call("list_dbs", Json.array(), IncomingTest::strings);
        peer.send("{\"id\":1,\"result\":[\"A\",,\"B\"],\"error\":null}");
        assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(SessionClosedException.class);
        assertThat(session.closed().get(5, TimeUnit.SECONDS)).isInstanceOf(ProtocolException.class);
    }

    @Test
    void answersAnEchoWhoseParamsComeBeforeItsMethod() throws Exception {
        peer.send("{\"params\":[\"ping\"],\"id\":\"e1\",\"method\":\"echo\"}");
        JsonNode reply = Json.parse(peer.written.poll(5, TimeUnit.SECONDS));
        assertThat(reply.get("id").asText()).isEqualTo("e1");
        assertThat(Json.text(reply.get("result"))).isEqualTo("[\"ping\"]");
    }

    private static List<String> strings(JsonParser p) throws IOException {
        List<String> out = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            out.add(p.getText());
        }
        return out;
    }
}
