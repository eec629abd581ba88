package io.kovn.ovsdb.data;

import java.util.Map;
import java.util.Objects;

/**
 * A generic, immutable OVSDB row: its uuid and column values in kovn's canonical Java form.
 *
 * <p>Canonical value form (used everywhere in the library; typed rows convert to and from it):
 *
 * <ul>
 *   <li>atoms: {@code String}, {@code Long} (integer), {@code Double} (real), {@code Boolean}, {@link Uuid} (or
 *       {@link NamedUuid} inside a transaction being built);
 *   <li>a column whose type is exactly one atom (min 1, max 1): the atom itself;
 *   <li>any other set column (optional values included, min 0 max 1): an immutable {@code java.util.Set} of atoms
 *       (empty = absent);
 *   <li>map columns: an immutable {@code java.util.Map} from key atom to value atom.
 * </ul>
 *
 * {@code _uuid} and {@code _version} are not in {@link #columns()}.
 *
 * @param uuid the row's {@code _uuid}
 * @param columns column name to canonical value; may hold a subset of the table's columns
 */
public record Row(Uuid uuid, Map<String, Object> columns) {
    public Row {
        Objects.requireNonNull(uuid, "uuid");
        columns = Map.copyOf(columns);
    }

    /** The value of a column, or {@code null} when the row does not carry it. */
    public Object get(String column) {
        return columns.get(column);
    }

    /** A map column's value, empty when absent. */
    @SuppressWarnings("unchecked")
    public Map<String, String> stringMap(String column) {
        Object v = columns.get(column);
        return v == null ? Map.of() : (Map<String, String>) v;
    }
}
