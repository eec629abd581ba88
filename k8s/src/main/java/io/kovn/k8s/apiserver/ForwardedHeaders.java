package io.kovn.k8s.apiserver;

import io.vertx.core.MultiMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which headers cross the {@link AuthenticatingFront} (pure). Hop-by-hop headers (RFC 9110 section 7.6.1) stay
 * on their connection; the client's credentials stop at the front; the authenticated identity travels on as
 * {@code Impersonate-User}/{@code Impersonate-Group}, which the embedded API server reads as the requester.
 */
final class ForwardedHeaders {
    static final String IMPERSONATE_USER = "Impersonate-User";
    static final String IMPERSONATE_GROUP = "Impersonate-Group";
    private static final String IMPERSONATE_PREFIX = "impersonate-";

    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host");

    private ForwardedHeaders() {}

    /**
     * Whether the client asks to act as someone else. The front refuses that: behind it every request without
     * an Impersonate-User header is the embedded server's admin, so only the front may set one.
     */
    static boolean impersonates(MultiMap headers) {
        return headers.names().stream().anyMatch(n -> n.toLowerCase(Locale.ROOT).startsWith(IMPERSONATE_PREFIX));
    }

    /** Whether the request asks for a WebSocket upgrade (fabric8 watches do). */
    static boolean webSocketUpgrade(MultiMap headers) {
        String upgrade = headers.get("Upgrade");
        return upgrade != null && upgrade.equalsIgnoreCase("websocket");
    }

    /**
     * The headers of the request to the backend: the client's end-to-end headers without its credentials,
     * plus the identity. For a WebSocket the handshake headers are left out too: the front makes its own
     * handshake with the backend.
     */
    static MultiMap toBackend(MultiMap incoming, ClientIdentity identity, boolean webSocket) {
        Set<String> dropped = hopByHop(incoming);
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        for (Map.Entry<String, String> header : incoming) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (dropped.contains(name) || name.equals("authorization") || name.startsWith(IMPERSONATE_PREFIX)
                    || (webSocket && name.startsWith("sec-websocket-"))) {
                continue;
            }
            out.add(header.getKey(), header.getValue());
        }
        out.add(IMPERSONATE_USER, identity.user());
        identity.groups().forEach(group -> out.add(IMPERSONATE_GROUP, group));
        return out;
    }

    /** The headers of the response to the client: the backend's end-to-end headers. */
    static MultiMap toClient(MultiMap backend) {
        Set<String> dropped = hopByHop(backend);
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        for (Map.Entry<String, String> header : backend) {
            if (!dropped.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                out.add(header.getKey(), header.getValue());
            }
        }
        return out;
    }

    /** The fixed hop-by-hop headers and those a Connection header names. */
    private static Set<String> hopByHop(MultiMap headers) {
        Set<String> names = new HashSet<>(HOP_BY_HOP);
        for (String connection : headers.getAll("Connection")) {
            for (String token : connection.split(",")) {
                names.add(token.strip().toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }
}
