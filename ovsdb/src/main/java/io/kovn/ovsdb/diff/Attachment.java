package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.Uuid;
import java.util.Objects;

/**
 * A parent row, outside the reconcile's ownership, whose reference column must hold a desired (non-root) row: e.g. a
 * pod's logical switch port in the {@code ports} of a node's switch owned by another controller. The diff inserts the
 * reference when missing; the parent is otherwise left alone.
 *
 * @param table the parent's table
 * @param parent the parent row's uuid
 * @param column the parent's reference column
 */
public record Attachment(String table, Uuid parent, String column) {
    public Attachment {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(parent, "parent");
        Objects.requireNonNull(column, "column");
    }
}
