package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.ops.Condition;
import java.util.List;
import java.util.Objects;

/**
 * What to monitor of one table.
 *
 * @param table the table
 * @param columns the columns to monitor, empty for all
 * @param where conditions a row must meet to be in the cache (conjunction), empty for all rows;
 *     needs a server with {@code monitor_cond} (all OVSDB servers since OVS 2.6)
 */
public record TableMonitor(String table, List<String> columns, List<Condition> where) {
    public TableMonitor {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        where = List.copyOf(where);
    }

    /** All rows and columns of a table. */
    public static TableMonitor all(String table) {
        return new TableMonitor(table, List.of(), List.of());
    }

    /** Only rows meeting all conditions. */
    public static TableMonitor where(String table, Condition... where) {
        return new TableMonitor(table, List.of(), List.of(where));
    }
}
