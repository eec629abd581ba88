package io.kovn.ovsdb.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One table of a database schema.
 *
 * @param name the table name
 * @param columns column name to schema, in schema order
 * @param isRoot whether rows survive without strong references (RFC 7047 "isRoot")
 * @param indexes the sets of columns whose values are unique together
 * @param maxRows the row limit, or {@code null}
 */
public record TableSchema(
        String name, Map<String, ColumnSchema> columns, boolean isRoot, List<Set<String>> indexes, Long maxRows) {

    public TableSchema {
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        indexes = indexes.stream().map(Set::copyOf).toList();
    }

    /** A column's schema, if the table has it. */
    public Optional<ColumnSchema> column(String column) {
        return Optional.ofNullable(columns.get(column));
    }

    /** Whether the table has the column. */
    public boolean hasColumn(String column) {
        return columns.containsKey(column);
    }

    /** A column's type; fails with a clear message for an unknown column. */
    public ColumnType type(String column) {
        ColumnSchema c = columns.get(column);
        if (c == null) {
            throw new SchemaException("table " + name + " has no column " + column);
        }
        return c.type();
    }
}
