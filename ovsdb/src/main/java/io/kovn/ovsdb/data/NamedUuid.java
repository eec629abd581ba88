package io.kovn.ovsdb.data;

import java.util.Objects;

/**
 * A reference to a row inserted earlier in the same transaction ({@code ["named-uuid","name"]}). May stand wherever a
 * {@link Uuid} value is allowed inside operations of one transaction.
 *
 * @param name the uuid-name given to the insert operation; an OVSDB id ({@code [a-zA-Z_][a-zA-Z0-9_]*})
 */
public record NamedUuid(String name) {
    public NamedUuid {
        Objects.requireNonNull(name, "name");
        if (!isId(name)) {
            throw new IllegalArgumentException("not an OVSDB id: " + name);
        }
    }

    /** {@code [a-zA-Z_][a-zA-Z0-9_]*}, checked by hand: a bulk insert names thousands of rows. */
    private static boolean isId(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
            if (!letter && (i == 0 || c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }
}
