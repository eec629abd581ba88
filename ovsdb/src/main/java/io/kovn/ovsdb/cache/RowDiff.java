package io.kovn.ovsdb.cache;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.TableSchema;
import io.kovn.ovsdb.wire.ValueCodec;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Applies an {@code update2} "modify" row diff (ovsdb-server(7)): scalar columns carry their
 * new value; a set or map column carries the elements that changed — present ones are removed,
 * absent ones added, and a map key with a different value is replaced. An optional
 * (0..1) column carries its new value, as a scalar does. Pure.
 */
final class RowDiff {
    private RowDiff() {}

    static Row apply(Row old, JsonNode diff, TableSchema table) {
        Map<String, Object> cols = new HashMap<>(old.columns());
        for (Iterator<Map.Entry<String, JsonNode>> it = diff.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ColumnSchema column = table.columns().get(e.getKey());
            if (column == null) {
                continue;
            }
            ColumnType type = column.type();
            Object current = cols.get(e.getKey());
            // decode the diff with unlimited bounds: a set diff may hold more elements than max
            ColumnType diffType = new ColumnType(type.key(), type.value(), 0, ColumnType.UNLIMITED);
            if (type.isScalar() || type.isOptional()) {
                // single-valued columns carry their new value (observed from ovsdb-server 3.5)
                cols.put(e.getKey(), ValueCodec.decode(e.getValue(), type));
            } else if (type.isMap()) {
                @SuppressWarnings("unchecked")
                Map<Object, Object> d = (Map<Object, Object>) ValueCodec.decode(e.getValue(), diffType);
                Map<Object, Object> m = current == null ? new HashMap<>() : new HashMap<>((Map<?, ?>) current);
                for (Map.Entry<Object, Object> de : d.entrySet()) {
                    if (de.getValue().equals(m.get(de.getKey()))) {
                        m.remove(de.getKey());
                    } else {
                        m.put(de.getKey(), de.getValue());
                    }
                }
                cols.put(e.getKey(), Map.copyOf(m));
            } else {
                @SuppressWarnings("unchecked")
                Set<Object> d = (Set<Object>) ValueCodec.decode(e.getValue(), diffType);
                Set<?> cur = current == null ? Set.of() : (Set<?>) current;
                // O(change) for large sets: an address set of 10,000 addresses that gains one should
                // not be copied on the thread that also delivers transaction replies
                cols.put(e.getKey(), LayeredSet.toggle(cur, d));
            }
        }
        return new Row(old.uuid(), cols);
    }
}
