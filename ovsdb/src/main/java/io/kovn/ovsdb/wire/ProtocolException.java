package io.kovn.ovsdb.wire;

/** Bytes or JSON from the peer that do not follow OVSDB's JSON-RPC protocol. */
public class ProtocolException extends RuntimeException {
    public ProtocolException(String message) {
        super(message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
