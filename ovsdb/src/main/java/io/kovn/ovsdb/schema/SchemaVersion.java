package io.kovn.ovsdb.schema;

/**
 * A schema version {@code x.y.z}; compatibility follows OVSDB's convention: the same major version, and a server minor
 * at least the one the caller was written against.
 *
 * @param major incompatible changes
 * @param minor compatible additions
 * @param patch fixes
 */
public record SchemaVersion(int major, int minor, int patch) implements Comparable<SchemaVersion> {

    /** Parses {@code "7.11.0"}. */
    public static SchemaVersion parse(String text) {
        String[] parts = text.trim().split("\\.");
        if (parts.length != 3) {
            throw new SchemaException("not a schema version x.y.z: " + text);
        }
        try {
            return new SchemaVersion(
                    Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        } catch (NumberFormatException e) {
            throw new SchemaException("not a schema version x.y.z: " + text);
        }
    }

    /** Whether a server with this version can serve a client written for {@code expected}. */
    public boolean satisfies(SchemaVersion expected) {
        return major == expected.major && minor >= expected.minor;
    }

    @Override
    public int compareTo(SchemaVersion o) {
        if (major != o.major) {
            return Integer.compare(major, o.major);
        }
        if (minor != o.minor) {
            return Integer.compare(minor, o.minor);
        }
        return Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
