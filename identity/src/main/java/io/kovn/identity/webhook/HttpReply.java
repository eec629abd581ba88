package io.kovn.identity.webhook;

import java.nio.charset.StandardCharsets;

/**
 * An HTTP answer of the webhook, independent of the server that sends it.
 *
 * @param status HTTP status code
 * @param contentType media type of the body
 * @param body the body bytes
 */
public record HttpReply(int status, String contentType, byte[] body) {
    /** A plain-text reply. */
    public static HttpReply text(int status, String message) {
        return new HttpReply(status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON reply with status 200. */
    public static HttpReply json(byte[] body) {
        return new HttpReply(200, "application/json", body);
    }
}
