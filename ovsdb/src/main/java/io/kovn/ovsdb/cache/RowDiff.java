package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.TableSchema;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Applies an {@code update2} "modify" row diff (ovsdb-server(7)): scalar columns carry their new value; a set or map
 * column carries the elements that changed — present ones are removed, absent ones added, and a map key with a
 * different value is replaced. An optional (0..1) column carries its new value, as a scalar does. Pure.
 */
final class RowDiff {
    private RowDiff() {}

    /**
     * @param diff column name to its decoded diff value (decoded with the column's type; only columns of the table), as
     *     {@link UpdateReader} makes it
     */
    static Row apply(Row old, Map<String, Object> diff, TableSchema table) {
        Map<String, Object> cols = new HashMap<>(old.columns());
        for (Map.Entry<String, Object> e : diff.entrySet()) {
            ColumnType type = table.type(e.getKey());
            Object current = cols.get(e.getKey());
            if (type.isScalar() || type.isOptional()) {
                // single-valued columns carry their new value (observed from ovsdb-server 3.5)
                cols.put(e.getKey(), e.getValue());
            } else if (type.isMap()) {
                Map<Object, Object> m = current == null ? new HashMap<>() : new HashMap<>((Map<?, ?>) current);
                for (Map.Entry<?, ?> de : ((Map<?, ?>) e.getValue()).entrySet()) {
                    if (de.getValue().equals(m.get(de.getKey()))) {
                        m.remove(de.getKey());
                    } else {
                        m.put(de.getKey(), de.getValue());
                    }
                }
                cols.put(e.getKey(), Map.copyOf(m));
            } else {
                Set<?> cur = current == null ? Set.of() : (Set<?>) current;
                // O(change) for large sets: an address set of 10,000 addresses that gains one should
                // not be copied on the thread that also delivers transaction replies
                cols.put(e.getKey(), LayeredSet.toggle(cur, (Set<?>) e.getValue()));
            }
        }
        return new Row(old.uuid(), cols);
    }
}
