package io.kovn.ovsdb.data;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An OVSDB row UUID, as on the wire in {@code ["uuid","<36 chars>"]}.
 *
 * @param value the canonical lower-case 36-character form
 */
public record Uuid(String value) implements Comparable<Uuid> {
    private static final Pattern FORMAT =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    public Uuid {
        Objects.requireNonNull(value, "value");
        value = value.toLowerCase(java.util.Locale.ROOT);
        if (!FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("not a UUID: " + value);
        }
    }

    public static Uuid of(String value) {
        return new Uuid(value);
    }

    public static Uuid random() {
        return new Uuid(java.util.UUID.randomUUID().toString());
    }

    @Override
    public int compareTo(Uuid o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
