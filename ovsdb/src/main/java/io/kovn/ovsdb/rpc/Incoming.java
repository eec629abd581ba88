package io.kovn.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.RawJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One received JSON-RPC message, read in one pass over its members. ovsdb-server writes {@code id} and {@code method}
 * before {@code params}, and {@code id} before {@code result}: a notification's params then go to the handler, and a
 * response's result to its request's decoder, while the message is parsed, so a monitor update of megabytes is parsed
 * once. In any other order (or when a member is repeated) the value is read from its bytes after the whole message.
 */
final class Incoming implements RawJson.MemberVisitor {
    private final RpcSession session;
    private final Map<Long, Pending<?>> pending;
    private final NotificationHandler notifications;
    private JsonNode id;
    private String method;
    private RawJson params;
    private boolean notified;
    private RawJson result;
    private Pending.Decoded<?> decoded;
    private JsonNode error;

    Incoming(RpcSession session, Map<Long, Pending<?>> pending, NotificationHandler notifications) {
        this.session = session;
        this.pending = pending;
        this.notifications = notifications;
    }

    /** Reads {@code frame} and acts on it: notification, request or response. */
    void handle(byte[] frame) {
        RawJson.forEachMember(frame, this);
        finish(frame);
    }

    @Override
    public void member(String name, RawJson value) {
        switch (name) {
            case "id" -> id = value.tree();
            case "method" -> method = value.tree().asText();
            case "params" -> {
                params = value;
                notified = method != null && id != null && id.isNull();
                if (notified) {
                    notifications.onNotification(session, method, value);
                }
            }
            case "result" -> {
                result = value;
                Pending<?> p = method == null && id != null && id.canConvertToLong() ? pending.get(id.asLong()) : null;
                decoded = p == null ? null : p.decode(value);
            }
            case "error" -> error = value.tree();
            default -> {}
        }
    }

    private void finish(byte[] frame) {
        if (method != null) {
            RawJson p = params != null ? params : RawJson.of(MissingNode.getInstance());
            if (id == null || id.isNull()) {
                if (!notified) {
                    notifications.onNotification(session, method, p);
                }
            } else {
                session.answer(method, p.tree(), id);
            }
            return;
        }
        if (result == null && error == null) {
            String text = new String(frame, 0, Math.min(frame.length, 200), StandardCharsets.UTF_8);
            throw new ProtocolException("message is neither request nor response: " + text);
        }
        if (id == null || !id.canConvertToLong()) {
            return; // a response to something we never sent (e.g. echo of a stray id): ignore
        }
        Pending<?> p = pending.remove(id.asLong());
        if (p == null) {
            return; // timed out already
        }
        if (error != null && !error.isNull()) {
            p.future().completeExceptionally(new RpcErrorException(p.method(), error));
        } else if (decoded != null && decoded.request() == p) {
            decoded.complete();
        } else {
            p.decode(result).complete();
        }
    }
}
