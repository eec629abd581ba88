package io.kovn.node.cni;

/**
 * A CNI error result: the well-known codes of the CNI specification 1.1 (0-99) or a kovn code (100+). The handler
 * throws it; the server turns it into the error JSON {@code {"code","msg","details"}} that the plugin prints with exit
 * status 1.
 */
public final class CniException extends Exception {
    /** The network configuration's cniVersion is not supported (or the command needs a later one). */
    public static final int INCOMPATIBLE_CNI_VERSION = 1;
    /** A field of the network configuration is not supported; the message names key and value. */
    public static final int UNSUPPORTED_FIELD = 2;
    /** The container is unknown or does not exist; the runtime need not clean up its network. */
    public static final int UNKNOWN_CONTAINER = 3;
    /** A required CNI_* environment variable (including CNI_ARGS content) is missing or invalid. */
    public static final int INVALID_ENVIRONMENT_VARIABLES = 4;
    /** An I/O failure, e.g. reading stdin or talking to the node agent. */
    public static final int IO_FAILURE = 5;
    /** The network configuration (or CNI_ARGS) could not be decoded. */
    public static final int DECODING_FAILURE = 6;
    /** The network configuration failed validation. */
    public static final int INVALID_NETWORK_CONFIG = 7;
    /** A transient condition: the runtime should retry later. */
    public static final int TRY_AGAIN_LATER = 11;
    /** STATUS: the plugin cannot serve ADD requests now. */
    public static final int PLUGIN_NOT_AVAILABLE = 50;
    /** STATUS: not available, and existing containers may have limited connectivity. */
    public static final int PLUGIN_NOT_AVAILABLE_LIMITED_CONNECTIVITY = 51;
    /** kovn: an unexpected failure inside the node agent (a bug; the details say what). */
    public static final int INTERNAL_ERROR = 100;
    /** kovn: the caller's user may not plumb pods (neither root nor the node agent's own user). */
    public static final int PERMISSION_DENIED = 101;

    private final int code;
    private final String details;

    /**
     * @param code a well-known code above or a kovn code of 100 or more
     * @param msg a short message, e.g. "pod annotation not found"
     * @param details a longer explanation, or "" for none
     */
    public CniException(int code, String msg, String details) {
        super(msg);
        this.code = code;
        this.details = details == null ? "" : details;
    }

    /** A {@link CniException} without details. */
    public CniException(int code, String msg) {
        this(code, msg, "");
    }

    /** The CNI error code. */
    public int code() {
        return code;
    }

    /** The short message ({@code msg} in the error JSON). */
    public String msg() {
        return getMessage();
    }

    /** The details, "" when there are none. */
    public String details() {
        return details;
    }
}
