package io.kovn.ovsdb.testing;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.wire.DumpFormat;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.util.List;
import java.util.Set;

/** A table's rows as {@code ovsdb-client dump} (an independent tool) sees them. */
public final class ServerDump {
    private ServerDump() {}

    public static Set<Row> rows(OvnDatabases ovn, OvsdbServerProcess server, DatabaseSchema schema, String table) {
        String out = Tools.run(List.of(
                ovn.runtime().bin("ovsdb-client").toString(),
                "-f",
                "json",
                "dump",
                server.unixEndpoint(),
                schema.name(),
                table));
        return DumpFormat.rows(out, schema.require(table));
    }
}
