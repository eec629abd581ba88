package io.kovn.ovsdb.ops;

import io.kovn.ovsdb.data.FrozenValue;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Uuid;
import java.util.Collection;
import java.util.Map;

/** Checks that values are in canonical form (see {@link io.kovn.ovsdb.data.Row}) when operations are built. */
final class CanonicalValues {
    private CanonicalValues() {}

    static void requireCanonical(String column, Object value) {
        switch (value) {
            case FrozenValue frozen -> {
                // plain atoms by contract: a zone's first write would check a million addresses again
            }
            case Map<?, ?> m ->
                m.forEach((k, v) -> {
                    requireAtom(column, k);
                    requireAtom(column, v);
                });
            case Collection<?> c -> c.forEach(a -> requireAtom(column, a));
            default -> requireAtom(column, value);
        }
    }

    static void requireRow(Map<String, Object> row) {
        row.forEach(CanonicalValues::requireCanonical);
    }

    private static void requireAtom(String column, Object atom) {
        if (!(atom instanceof String
                || atom instanceof Long
                || atom instanceof Integer
                || atom instanceof Double
                || atom instanceof Boolean
                || atom instanceof Uuid
                || atom instanceof NamedUuid)) {
            throw new IllegalArgumentException("column " + column + ": not an OVSDB atom: "
                    + (atom == null ? "null" : atom.getClass().getName()));
        }
    }
}
