package io.kovn.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.wire.RawJson;

/**
 * Receives the peer's notifications (e.g. {@code update2}), in order, on the session's reader thread (a large one, with
 * {@link RpcSession#decodeLargeMessagesAtNice}, on its bulk thread while the reader waits).
 */
@FunctionalInterface
public interface NotificationHandler {
    void onNotification(RpcSession session, String method, JsonNode params);

    /**
     * The same with the params not parsed yet: handlers of large notifications (monitor updates of megabytes) override
     * this to read them as a stream instead of as a tree.
     */
    default void onNotification(RpcSession session, String method, RawJson params) {
        onNotification(session, method, params.tree());
    }
}
