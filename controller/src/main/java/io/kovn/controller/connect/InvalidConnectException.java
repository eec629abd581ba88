package io.kovn.controller.connect;

/**
 * A ClusterNetworkConnect's spec breaks a rule its CRD does not express (or that an older API server did not check):
 * the message names the field and the offending value.
 */
public final class InvalidConnectException extends IllegalArgumentException {
    public InvalidConnectException(String message) {
        super(message);
    }
}
