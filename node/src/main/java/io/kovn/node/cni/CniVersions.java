package io.kovn.node.cni;

import java.util.List;

/** The CNI specification versions kovn speaks and how they compare. */
public final class CniVersions {
    private CniVersions() {}

    /** Supported versions, oldest first; the plugin's VERSION answer lists exactly these. */
    public static final List<String> SUPPORTED = List.of("0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0");

    /** The newest supported version, used for answers when the request's version is unknown. */
    public static final String LATEST = "1.1.0";

    /** Whether {@code version} is one kovn can encode results in. */
    public static boolean isSupported(String version) {
        return SUPPORTED.contains(version);
    }

    /** Whether supported {@code version} is at least supported {@code minimum}. */
    public static boolean atLeast(String version, String minimum) {
        return SUPPORTED.indexOf(version) >= SUPPORTED.indexOf(minimum);
    }
}
