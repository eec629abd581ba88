package io.kovn.ovsdb.client;

/** Base of the client's failures. */
public class OvsdbException extends RuntimeException {
    public OvsdbException(String message) {
        super(message);
    }

    public OvsdbException(String message, Throwable cause) {
        super(message, cause);
    }
}
