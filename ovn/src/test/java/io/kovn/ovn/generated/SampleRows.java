package io.kovn.ovn.generated;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.TableSchema;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** Generic rows with a non-default value in every column, built from a schema file. */
final class SampleRows {
    private SampleRows() {}

    static DatabaseSchema schema(String relative) {
        return DatabaseSchema.read(Path.of(System.getProperty("kovn.schemas"), relative));
    }

    /** A row of the table whose every column holds a value other than the column's default. */
    static Row fullRow(TableSchema table) {
        Map<String, Object> columns = new HashMap<>();
        for (ColumnSchema c : table.columns().values()) {
            columns.put(c.name(), value(c.type(), c.name()));
        }
        return new Row(Uuid.random(), columns);
    }

    private static Object value(ColumnType type, String column) {
        if (type.isScalar()) {
            return atom(type.key(), column, 0);
        }
        if (type.isMap()) {
            return Map.of(atom(type.key(), column, 0), atom(type.value(), column, 0));
        }
        if (type.max() >= 2 && distinct(type.key())) {
            return Set.of(atom(type.key(), column, 0), atom(type.key(), column, 1));
        }
        return Set.of(atom(type.key(), column, 0));
    }

    private static boolean distinct(BaseType base) {
        return base.enumValues().size() != 1
                && !(base.minInteger() != null && base.minInteger().equals(base.maxInteger()));
    }

    private static Object atom(BaseType base, String column, int n) {
        if (base.isEnum()) {
            return base.enumValues().stream()
                    .map(Object::toString)
                    .sorted()
                    .skip(n)
                    .findFirst()
                    .orElseThrow();
        }
        return switch (base.type()) {
            case STRING -> column + "-" + n;
            case INTEGER -> base.minInteger() != null ? base.minInteger() + 1 + n : 7L + n;
            case REAL -> 1.5 + n;
            case BOOLEAN -> n == 0;
            case UUID -> Uuid.random();
        };
    }
}
