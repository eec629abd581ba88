package io.kovn.controller.network;

/**
 * Why a declared network is refused: the reason of its {@code NetworkCreated=False} condition and Event, and a message
 * an operator can act on.
 */
public final class InvalidNetworkException extends IllegalArgumentException {
    /** The spec cannot be read, or breaks a rule the schema does not express. */
    public static final String INVALID_SPEC = "InvalidSpec";

    private final String reason;

    public InvalidNetworkException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
