package io.kovn.ovsdb.cache;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Conditions;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.wire.ValueCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * How {@link MonitorCache} decoded monitor messages before {@link UpdateReader}: from a JSON tree, with
 * {@link ValueCodec}, rule for rule (the loops of its former {@code applyUpdates2}, {@code applyUpdates1},
 * {@code replaceAll} and {@code RowDiff}), written out as the row updates they applied. The reference the streaming
 * decoder is compared against.
 */
final class ReferenceUpdates {
    private ReferenceUpdates() {}

    static List<RowUpdate> decode(
            JsonNode updates,
            Map<String, TableStore> stores,
            Map<String, TableMonitor> monitors,
            UpdateReader.Mode mode) {
        List<RowUpdate> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> t = updates.fields(); t.hasNext(); ) {
            Map.Entry<String, JsonNode> te = t.next();
            TableStore store = stores.get(te.getKey());
            if (store == null) {
                continue;
            }
            TableMonitor mon = monitors.get(te.getKey());
            for (Iterator<Map.Entry<String, JsonNode>> r = te.getValue().fields(); r.hasNext(); ) {
                Map.Entry<String, JsonNode> re = r.next();
                JsonNode u = re.getValue();
                switch (mode) {
                    case APPLY2 -> {
                        Uuid uuid = Uuid.of(re.getKey());
                        if (u.has("initial") || u.has("insert")) {
                            out.add(new RowUpdate.Put(
                                    store,
                                    ValueCodec.decodeFullRow(
                                            uuid,
                                            u.has("initial") ? u.get("initial") : u.get("insert"),
                                            store.schema(),
                                            mon.columns())));
                        } else if (u.has("modify")) {
                            out.add(new RowUpdate.Modify(store, uuid, diff(u.get("modify"), store)));
                        } else if (u.has("delete")) {
                            out.add(new RowUpdate.Delete(store, uuid));
                        }
                    }
                    case REPLACE2, REPLACE1 -> {
                        JsonNode rowJson = mode == UpdateReader.Mode.REPLACE2
                                ? (u.has("initial") ? u.get("initial") : u.get("insert"))
                                : u.get("new");
                        if (rowJson == null || rowJson.isNull()) {
                            continue;
                        }
                        Uuid uuid = Uuid.of(re.getKey());
                        Row row = ValueCodec.decodeFullRow(uuid, rowJson, store.schema(), mon.columns());
                        if (mode == UpdateReader.Mode.REPLACE2 || Conditions.matches(row, mon.where())) {
                            out.add(new RowUpdate.Put(store, row));
                        }
                    }
                    case APPLY1 -> {
                        Uuid uuid = Uuid.of(re.getKey());
                        JsonNode n = u.get("new");
                        Row row = n == null || n.isNull()
                                ? null
                                : ValueCodec.decodeFullRow(uuid, n, store.schema(), mon.columns());
                        if (row != null && !Conditions.matches(row, mon.where())) {
                            row = null;
                        }
                        out.add(row == null ? new RowUpdate.Delete(store, uuid) : new RowUpdate.Put(store, row));
                    }
                }
            }
        }
        return out;
    }

    /** The former RowDiff's decoding: single-valued columns by their type, sets and maps with unlimited bounds. */
    private static Map<String, Object> diff(JsonNode diff, TableStore store) {
        Map<String, Object> out = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = diff.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ColumnSchema column = store.schema().columns().get(e.getKey());
            if (column == null) {
                continue;
            }
            ColumnType type = column.type();
            ColumnType diffType = new ColumnType(type.key(), type.value(), 0, ColumnType.UNLIMITED);
            out.put(
                    e.getKey(),
                    ValueCodec.decode(e.getValue(), type.isScalar() || type.isOptional() ? type : diffType));
        }
        return out;
    }
}
