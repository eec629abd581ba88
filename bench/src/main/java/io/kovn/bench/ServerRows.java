package io.kovn.bench;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.wire.DumpFormat;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
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
        return DumpFormat.rows(out, schema.require(table));
    }
}
