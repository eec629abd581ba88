package io.kovn.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;

/** Receives the peer's notifications (e.g. {@code update2}), on the session's reader thread, in order. */
@FunctionalInterface
public interface NotificationHandler {
    void onNotification(RpcSession session, String method, JsonNode params);
}
