package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;

/** One row's change within a {@link CacheUpdate}. */
public sealed interface RowChange {
    /** The table of the row. */
    String table();

    /** The row's uuid. */
    Uuid uuid();

    /** A row that appeared. */
    record Inserted(String table, Row row) implements RowChange {
        @Override
        public Uuid uuid() {
            return row.uuid();
        }
    }

    /** A row whose columns changed: its whole value before and after. */
    record Updated(String table, Row old, Row row) implements RowChange {
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
