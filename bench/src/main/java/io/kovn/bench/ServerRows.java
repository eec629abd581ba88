package io.kovn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.TableSchema;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.ValueCodec;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A table's rows as {@code ovsdb-client dump} (an independent tool, a connection of its own) sees them. */
final class ServerRows {
    private ServerRows() {}

    static Set<Row> dump(OvnDatabases ovn, OvsdbServerProcess server, DatabaseSchema schema, String table) {
        String out = Tools.run(List.of(
                ovn.runtime().bin("ovsdb-client").toString(),
                "-f",
                "json",
                "dump",
                server.unixEndpoint(),
                schema.name(),
                table));
        JsonNode json = Json.parse(out);
        TableSchema ts = schema.require(table);
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
            rows.add(ValueCodec.decodeRow(uuid, obj, ts));
        }
        return rows;
    }
}
