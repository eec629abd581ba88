package io.kovn.ovsdb.data;

import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

/**
 * An OVSDB row UUID, as on the wire in {@code ["uuid","<36 chars>"]}.
 *
 * @param value the canonical lower-case 36-character form
 */
public record Uuid(String value) implements Comparable<Uuid> {
    public Uuid {
        Objects.requireNonNull(value, "value");
        value = value.toLowerCase(Locale.ROOT);
        if (!wellFormed(value)) {
            throw new IllegalArgumentException("not a UUID: " + value);
        }
    }

    /**
     * Whether {@code s} is 8-4-4-4-12 lower-case hex digits. By hand rather than by a regular expression: a monitor
     * update of a large database decodes tens of thousands of uuids.
     */
    private static boolean wellFormed(String s) {
        if (s.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            boolean ok = i == 8 || i == 13 || i == 18 || i == 23
                    ? c == '-'
                    : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    public static Uuid of(String value) {
        return new Uuid(value);
    }

    public static Uuid random() {
        return new Uuid(UUID.randomUUID().toString());
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
