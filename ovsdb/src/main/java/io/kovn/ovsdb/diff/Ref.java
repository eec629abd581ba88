package io.kovn.ovsdb.diff;

import java.util.Objects;

/**
 * A reference, inside a desired row's column, to another desired row of the same reconcile, by key. The diff resolves
 * it to the row's uuid when the row exists, or to the named uuid of its insert in the same transaction.
 *
 * @param table the referenced row's table
 * @param key the referenced row's key (see {@link RowKey})
 */
public record Ref(String table, String key) {
    public Ref {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(key, "key");
    }

    /** A reference to the desired row of {@code table} with this key. */
    public static Ref to(String table, String key) {
        return new Ref(table, key);
    }
}
