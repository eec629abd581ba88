package io.kovn.ovsdb.cache;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.ProtocolException;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Reads a monitor's messages around their table updates, straight from the parser: the replies of the three monitor
 * methods and the elements of update notifications' params.
 */
final class MonitorMessages {
    private final Map<String, TableStore> stores;
    private final Map<String, TableMonitor> monitors;

    MonitorMessages(Map<String, TableStore> stores, Map<String, TableMonitor> monitors) {
        this.stores = stores;
        this.monitors = monitors;
    }

    /** A decoded monitor reply: rows to apply ({@code resumed}) or that replace the cache. */
    record Reply(boolean resumed, String lastTxnId, List<RowUpdate> rows) {}

    /** A reply: {@code [found, last-txn-id, table-updates2]} for monitor_cond_since, else the table updates. */
    Reply reply(JsonParser p, MonitorMethod method) throws IOException {
        return switch (method) {
            case COND_SINCE -> {
                if (p.currentToken() != JsonToken.START_ARRAY) {
                    throw new ProtocolException("monitor_cond_since reply is not an array");
                }
                boolean found = nextTree(p).asBoolean();
                String txn = nextTree(p).asText();
                yield new Reply(
                        found, txn, nextUpdates(p, found ? UpdateReader.Mode.APPLY2 : UpdateReader.Mode.REPLACE2));
            }
            case COND -> new Reply(false, null, UpdateReader.read(p, stores, monitors, UpdateReader.Mode.REPLACE2));
            case PLAIN -> new Reply(false, null, UpdateReader.read(p, stores, monitors, UpdateReader.Mode.REPLACE1));
        };
    }

    /** The next element of an array: table updates. */
    List<RowUpdate> nextUpdates(JsonParser p, UpdateReader.Mode mode) throws IOException {
        next(p);
        return UpdateReader.read(p, stores, monitors, mode);
    }

    /** The next (small) element of an array as a tree: a found flag, a last transaction id. */
    static JsonNode nextTree(JsonParser p) throws IOException {
        next(p);
        return Json.MAPPER.readTree(p);
    }

    private static void next(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null || t == JsonToken.END_ARRAY) {
            throw new ProtocolException("too few elements in a monitor message");
        }
    }
}
