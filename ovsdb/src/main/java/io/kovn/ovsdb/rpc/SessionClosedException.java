package io.kovn.ovsdb.rpc;

/** The session ended (closed, peer gone, or a protocol error) before the request was answered. */
public class SessionClosedException extends RuntimeException {
    public SessionClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
