package io.kovn.ovsdb.data;

import java.util.Objects;

/**
 * A reference to a row inserted earlier in the same transaction ({@code ["named-uuid","name"]}).
 * May stand wherever a {@link Uuid} value is allowed inside operations of one transaction.
 *
 * @param name the uuid-name given to the insert operation; an OVSDB id ({@code [a-zA-Z_][a-zA-Z0-9_]*})
 */
public record NamedUuid(String name) {
    public NamedUuid {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
            throw new IllegalArgumentException("not an OVSDB id: " + name);
        }
    }
}
