package io.kovn.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.wire.RawJson;

/** A test's notification handler that reads the raw form only, as the client's does. */
@FunctionalInterface
interface RawNotifications extends NotificationHandler {
    void notified(String method, RawJson params);

    @Override
    default void onNotification(RpcSession s, String method, JsonNode params) {
        throw new AssertionError("the raw form is delivered");
    }

    @Override
    default void onNotification(RpcSession s, String method, RawJson params) {
        notified(method, params);
    }
}
