package io.kovn.ovsdb.client;

/** The server did not answer within the client's timeout. */
public class OvsdbTimeoutException extends OvsdbException {
    public OvsdbTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
