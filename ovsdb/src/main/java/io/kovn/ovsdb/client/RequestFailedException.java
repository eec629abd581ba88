package io.kovn.ovsdb.client;

/** The server answered a request (other than a transaction's operations) with an error, e.g. an unknown database. */
public class RequestFailedException extends OvsdbException {
    private final String error;

    public RequestFailedException(String method, String error, Throwable cause) {
        super(method + " failed: " + error, cause);
        this.error = error;
    }

    /** The server's error text. */
    public String error() {
        return error;
    }
}
