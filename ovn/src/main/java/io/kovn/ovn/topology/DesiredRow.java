package io.kovn.ovn.topology;

import java.util.Map;
import java.util.Objects;

/**
 * One row a zone should hold: its table, its key (the {@code k8s.ovn.org/id} of rows with external ids; see
 * {@link ZoneTopology#keyOf} for the others) and its columns in canonical form. Columns referring to other desired rows
 * hold {@link io.kovn.ovsdb.diff.Ref} values (or sets of them).
 *
 * @param table the table name
 * @param key the row's key within the table
 * @param columns column values, including {@code external_ids} where the table has it
 */
public record DesiredRow(String table, String key, Map<String, Object> columns) {
    public DesiredRow {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(key, "key");
        columns = Map.copyOf(columns);
    }
}
