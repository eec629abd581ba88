package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Conditions;
import java.util.List;
import java.util.Objects;

/**
 * What to monitor of one table.
 *
 * @param table the table
 * @param columns the columns to monitor, empty for all
 * @param where clauses of which a row must meet at least one to be in the cache (a disjunction, as ovsdb-server
 *     evaluates a {@code monitor_cond} request's clauses: several owners' rows of one table), empty for all rows; needs
 *     a server with {@code monitor_cond} (all OVSDB servers since OVS 2.6), and is applied by the cache itself under
 *     plain {@code monitor}
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

    /** Only rows meeting at least one clause. */
    public static TableMonitor where(String table, Condition... anyOf) {
        return new TableMonitor(table, List.of(), List.of(anyOf));
    }

    /** Whether a row belongs in the cache. */
    public boolean matches(Row row) {
        return where.isEmpty() || where.stream().anyMatch(c -> Conditions.matches(row, c));
    }
}
