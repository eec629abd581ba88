package io.kovn.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.rpc.RpcSession;
import io.kovn.ovsdb.wire.RawJson;

/**
 * Extension hook for layers above the client (the monitor cache): told of every new session before callers can use it,
 * and of every notification.
 */
public interface SessionListener {
    /** A session was established (first connect or reconnect); called before it is published. */
    void connected(RpcSession session);

    /** A notification arrived on {@code session}, on its reader thread, in order. */
    void notification(RpcSession session, String method, JsonNode params);

    /**
     * The same with the params not parsed yet (parsed into a tree at most once, whichever listener asks first); the
     * monitor cache overrides this to decode updates as a stream.
     */
    default void notification(RpcSession session, String method, RawJson params) {
        notification(session, method, params.tree());
    }
}
