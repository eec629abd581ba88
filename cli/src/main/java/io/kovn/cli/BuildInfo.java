package io.kovn.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What this build of kovn is: the project version and the git commit it was built from, written into
 * {@code build-info.properties} by the build (Maven resource filtering; the commit by git-commit-id-maven-plugin).
 * {@code kovn version} prints them; the {@code kovn_build_info} metric carries them as labels.
 */
public final class BuildInfo {
    /** What a value the build could not fill in reads as (a source tree without .git has no revision). */
    public static final String UNKNOWN = "unknown";

    private static final Properties PROPERTIES = load();

    private BuildInfo() {}

    /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        return value("version");
    }

    /** The abbreviated git commit the build was made from, or {@value #UNKNOWN}. */
    public static String revision() {
        return value("revision");
    }

    /** The line {@code kovn version} prints: {@code kovn <version> (revision <sha>, Java <runtime version>)}. */
    static String describe() {
        return "kovn " + version() + " (revision " + revision() + ", Java " + Runtime.version() + ")";
    }

    private static String value(String key) {
        return filled(PROPERTIES.getProperty(key));
    }

    /** A property as the build left it: unset or still a {@code ${...}} placeholder means unknown. */
    static String filled(String raw) {
        return raw == null || raw.isBlank() || raw.contains("${") ? UNKNOWN : raw.strip();
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build-info.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /** picocli's {@code --version}: the same line as {@code kovn version}. */
    static final class Provider implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {describe()};
        }
    }
}
