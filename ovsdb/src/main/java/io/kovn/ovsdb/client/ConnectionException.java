package io.kovn.ovsdb.client;

/** No connection to the server, or it was lost before an answer arrived. */
public class ConnectionException extends OvsdbException {
    public ConnectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
