package io.kovn.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.rpc.RpcSession;

/**
 * Extension hook for layers above the client (the monitor cache): told of every new session
 * before callers can use it, and of every notification.
 */
public interface SessionListener {
    /** A session was established (first connect or reconnect); called before it is published. */
    void connected(RpcSession session);

    /** A notification arrived on {@code session}, on its reader thread, in order. */
    void notification(RpcSession session, String method, JsonNode params);
}
