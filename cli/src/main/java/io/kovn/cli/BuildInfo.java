package io.kovn.cli;

/**
 * What this build of kovn is (a minimal stand-in: the jar manifest's Implementation-Version, else "unknown"; no
 * revision). {@code kovn version} prints them; the {@code kovn_build_info} metric carries them as labels.
 */
public final class BuildInfo {
    /** What a value the build did not fill in reads as. */
    public static final String UNKNOWN = "unknown";

    private BuildInfo() {}

    /** The project version, or {@value #UNKNOWN}. */
    public static String version() {
        String v = BuildInfo.class.getPackage().getImplementationVersion();
        return v == null || v.isBlank() ? UNKNOWN : v;
    }

    /** The git commit the build was made from, or {@value #UNKNOWN}. */
    public static String revision() {
        return UNKNOWN;
    }
}
