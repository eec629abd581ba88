package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.Map;

/** One row of a decoded monitor update or initial state, as the cache applies it. */
sealed interface RowUpdate {
    TableStore store();

    /** The row's full new value (update2 {@code initial}/{@code insert}, update {@code new}). */
    record Put(TableStore store, Row row) implements RowUpdate {}

    /** An update2 {@code modify}: decoded column diffs (see {@link RowDiff}). */
    record Modify(TableStore store, Uuid uuid, Map<String, Object> diff) implements RowUpdate {}

    /** The row left the table, or no longer meets the monitor's conditions. */
    record Delete(TableStore store, Uuid uuid) implements RowUpdate {}
}
