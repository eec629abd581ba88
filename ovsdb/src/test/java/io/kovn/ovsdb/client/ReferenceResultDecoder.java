package io.kovn.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.TransactionResult;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.TableSchema;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.ValueCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tree-based transact result decoder kovn used before {@code ResultDecoder} streamed: the reference its tests
 * compare against.
 */
final class ReferenceResultDecoder {
    private static final Uuid NO_UUID = Uuid.of("00000000-0000-0000-0000-000000000000");

    private ReferenceResultDecoder() {}

    static TransactionResult decode(List<? extends Operation> ops, JsonNode result, DatabaseSchema schema) {
        if (result == null || !result.isArray()) {
            throw new ProtocolException("transact result is not an array: " + result);
        }
        // RFC 7047 4.1.3: on failure the result holding "error" names the failing operation;
        // an extra element after the operations reports a commit-time failure.
        for (int i = 0; i < result.size(); i++) {
            JsonNode r = result.get(i);
            if (r != null && r.isObject() && r.has("error") && !r.get("error").isNull()) {
                Operation op = i < ops.size() ? ops.get(i) : null;
                throw new OperationFailedException(
                        i,
                        op,
                        r.get("error").asText(),
                        r.has("details") ? r.get("details").asText() : null);
            }
        }
        if (result.size() < ops.size()) {
            throw new ProtocolException(
                    "transact returned " + result.size() + " results for " + ops.size() + " operations");
        }
        List<OperationResult> out = new ArrayList<>(ops.size());
        Map<String, Uuid> inserted = new HashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            JsonNode r = result.get(i);
            Operation op = ops.get(i);
            OperationResult res = switch (op) {
                case Operation.Insert ins -> {
                    Uuid u = ValueCodec.decodeUuid(r.get("uuid"));
                    if (ins.uuidName() != null) {
                        inserted.put(ins.uuidName(), u);
                    }
                    yield new OperationResult.Inserted(u);
                }
                case Operation.Select sel ->
                    new OperationResult.Selected(rows(r.get("rows"), schema.require(sel.table())));
                case Operation.Update u ->
                    new OperationResult.Counted(r.path("count").asLong());
                case Operation.Mutate m ->
                    new OperationResult.Counted(r.path("count").asLong());
                case Operation.Delete d ->
                    new OperationResult.Counted(r.path("count").asLong());
                default -> new OperationResult.Done();
            };
            out.add(res);
        }
        return new TransactionResult(out, inserted);
    }

    private static List<Row> rows(JsonNode rows, TableSchema table) {
        List<Row> out = new ArrayList<>(rows.size());
        for (JsonNode row : rows) {
            Uuid uuid = row.has("_uuid") ? ValueCodec.decodeUuid(row.get("_uuid")) : NO_UUID;
            out.add(ValueCodec.decodeRow(uuid, row, table));
        }
        return out;
    }
}
