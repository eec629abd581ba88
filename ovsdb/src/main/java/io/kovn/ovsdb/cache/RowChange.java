package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.List;
import java.util.Map;

/** One row's change within a {@link CacheUpdate}. */
public sealed interface RowChange {
    /** The table of the row. */
    String table();

    /** The row's uuid. */
    Uuid uuid();

    /**
     * The row as it was and as it is, whichever exist: an update's listener may care for either (its ids may change).
     */
    default List<Row> rows() {
        return switch (this) {
            case Inserted i -> List.of(i.row());
            case Updated u -> List.of(u.old(), u.row());
            case Deleted d -> List.of(d.old());
        };
    }

    /** A row that appeared. */
    record Inserted(String table, Row row) implements RowChange {
        @Override
        public Uuid uuid() {
            return row.uuid();
        }
    }

    /**
     * A row whose columns changed: its whole value before and after, and, when the server sent the change as an
     * update2/update3 {@code modify}, each changed column as the server's diff ({@code columnDiffs}): a set column's
     * elements that were added or removed, a map column's entries that were added, removed or replaced, any other
     * column's new value (also a column that holds at most one value, a set of zero or one element in {@link Row}). The
     * diff is exact where comparing {@code old} and {@code row} would cost O(size) and could not tell whose commit made
     * which part of a change; {@code columnDiffs} is null when the server sent whole rows (a plain {@code monitor}, a
     * resynchronisation).
     */
    record Updated(String table, Row old, Row row, Map<String, Object> columnDiffs) implements RowChange {
        /** A change known only by its whole rows. */
        public Updated(String table, Row old, Row row) {
            this(table, old, row, null);
        }

        @Override
        public Uuid uuid() {
            return row.uuid();
        }
    }

    /** A row that disappeared, with its last value. */
    record Deleted(String table, Row old) implements RowChange {
        @Override
        public Uuid uuid() {
            return old.uuid();
        }
    }
}
