package io.kovn.node.plumbing;

/** Pod plumbing could not be completed; whatever was created for the pod has been removed. */
public final class PlumbingException extends RuntimeException {
    public PlumbingException(String message, Throwable cause) {
        super(message, cause);
    }

    public PlumbingException(String message) {
        super(message);
    }
}
