package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

/** What crosses the front: end-to-end headers and the identity, never the client's credentials. */
class ForwardedHeadersTest {
    static final ClientIdentity NODE = ClientIdentity.of("system:ovn-node:node-1", "system:ovn-nodes");

    static MultiMap headers(String... nameValues) {
        MultiMap map = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < nameValues.length; i += 2) {
            map.add(nameValues[i], nameValues[i + 1]);
        }
        return map;
    }

    @Test
    void theIdentityReplacesTheCredentialsAndHopByHopHeadersStay() {
        MultiMap out = ForwardedHeaders.toBackend(headers("Accept", "application/json", "Authorization", "Bearer t",
                "Connection", "keep-alive, X-Private", "X-Private", "1", "Keep-Alive", "timeout=5", "Host", "front",
                "Transfer-Encoding", "chunked", "Content-Type", "application/merge-patch+json"), NODE, false);
        assertThat(out.names()).containsExactlyInAnyOrder("Accept", "Content-Type", "Impersonate-User", "Impersonate-Group");
        assertThat(out.get("Impersonate-User")).isEqualTo("system:ovn-node:node-1");
        assertThat(out.getAll("Impersonate-Group")).containsExactly("system:ovn-nodes");
    }

    @Test
    void aClientsOwnImpersonationIsDetectedAndNeverForwarded() {
        MultiMap in = headers("impersonate-user", "kubernetes-admin", "Impersonate-Group", "system:masters",
                "Impersonate-Extra-scopes", "x");
        assertThat(ForwardedHeaders.impersonates(in)).isTrue();
        assertThat(ForwardedHeaders.impersonates(headers("Accept", "*/*"))).isFalse();
        MultiMap out = ForwardedHeaders.toBackend(in, NODE, false);
        assertThat(out.getAll("Impersonate-User")).containsExactly("system:ovn-node:node-1");
        assertThat(out.getAll("Impersonate-Group")).containsExactly("system:ovn-nodes");
        assertThat(out.contains("Impersonate-Extra-scopes")).isFalse();
    }

    @Test
    void aWebSocketHandshakeIsTheFrontsOwnOnEachSide() {
        MultiMap in = headers("Upgrade", "websocket", "Connection", "Upgrade", "Sec-WebSocket-Key", "k",
                "Sec-WebSocket-Version", "13", "Origin", "o");
        assertThat(ForwardedHeaders.webSocketUpgrade(in)).isTrue();
        assertThat(ForwardedHeaders.toBackend(in, NODE, true).names())
                .containsExactlyInAnyOrder("Origin", "Impersonate-User", "Impersonate-Group");
    }

    @Test
    void responsesLoseOnlyHopByHopHeaders() {
        MultiMap out = ForwardedHeaders.toClient(headers("Content-Type", "application/json", "Transfer-Encoding", "chunked",
                "Connection", "close", "Audit-Id", "1"));
        assertThat(out.names()).containsExactlyInAnyOrder("Content-Type", "Audit-Id");
    }
}
