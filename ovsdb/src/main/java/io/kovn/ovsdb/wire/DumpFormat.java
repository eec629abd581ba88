package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows of one table as {@code ovsdb-client -f json dump SERVER DB TABLE} prints them: an independent reader of a
 * server's contents (its own connection, OVS's own code), which tests and fault programs compare kovn's monitor caches
 * with.
 */
public final class DumpFormat {
    private DumpFormat() {}

    /**
     * @param dump the tool's output for one table: {@code {"caption":..., "headings":[...], "data":[[...], ...]}}
     * @param table the table's schema, to decode each column
     */
    public static Set<Row> rows(String dump, TableSchema table) {
        JsonNode json = Json.parse(dump);
        List<String> headings = new ArrayList<>();
        json.get("headings").forEach(h -> headings.add(h.asText()));
        Set<Row> rows = new HashSet<>();
        for (JsonNode data : json.get("data")) {
            var obj = Json.object();
            Uuid uuid = null;
            for (int i = 0; i < headings.size(); i++) {
                if (headings.get(i).equals("_uuid")) {
                    uuid = ValueCodec.decodeUuid(data.get(i));
                } else {
                    obj.set(headings.get(i), data.get(i));
                }
            }
            rows.add(ValueCodec.decodeRow(uuid, obj, table));
        }
        return rows;
    }
}
