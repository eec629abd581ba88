package io.kovn.ovsdb.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.TransactionResult;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.TableSchema;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.ValueReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@code transact} result array into results or the typed failure, read straight from the parser (the uuids of
 * a bulk insert, the rows of a select of whole tables: no JSON tree). Each element is read first; then, as RFC 7047
 * 4.1.3 orders it, an element holding {@code error} names the failing operation (one after the operations reports a
 * commit-time failure), before any other value is judged. Pure.
 */
final class ResultDecoder {
    private static final Uuid NO_UUID = Uuid.of("00000000-0000-0000-0000-000000000000");

    private ResultDecoder() {}

    /** One element of the result array: what the operations need of it, or why it could not be read. */
    private static final class Element {
        boolean object;
        JsonNode error;
        JsonNode details;
        JsonNode count;
        Object uuid; // Uuid, or why it could not be decoded (thrown only if the operation needs it)
        Object rows; // List<Row>, or why they could not be decoded
    }

    static TransactionResult read(List<? extends Operation> ops, JsonParser p, DatabaseSchema schema)
            throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new ProtocolException("transact result is not an array: " + p.currentToken());
        }
        ValueReader values = ValueReader.current();
        List<Element> elements = new ArrayList<>(ops.size() + 1);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            Operation op = elements.size() < ops.size() ? ops.get(elements.size()) : null;
            elements.add(element(p, op, schema, values));
        }
        for (int i = 0; i < elements.size(); i++) {
            Element e = elements.get(i);
            if (e.object && e.error != null && !e.error.isNull()) {
                throw new OperationFailedException(
                        i,
                        i < ops.size() ? ops.get(i) : null,
                        e.error.asText(),
                        e.details != null ? e.details.asText() : null);
            }
        }
        if (elements.size() < ops.size()) {
            throw new ProtocolException(
                    "transact returned " + elements.size() + " results for " + ops.size() + " operations");
        }
        List<OperationResult> out = new ArrayList<>(ops.size());
        Map<String, Uuid> inserted = new HashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            Element e = elements.get(i);
            OperationResult res = switch (ops.get(i)) {
                case Operation.Insert ins -> {
                    Uuid u = (Uuid) value(e.uuid, "insert result without a uuid");
                    if (ins.uuidName() != null) {
                        inserted.put(ins.uuidName(), u);
                    }
                    yield new OperationResult.Inserted(u);
                }
                case Operation.Select sel -> {
                    @SuppressWarnings("unchecked")
                    List<Row> rows = (List<Row>) value(e.rows, "select result without rows");
                    yield new OperationResult.Selected(rows);
                }
                case Operation.Update u -> new OperationResult.Counted(count(e));
                case Operation.Mutate m -> new OperationResult.Counted(count(e));
                case Operation.Delete d -> new OperationResult.Counted(count(e));
                default -> new OperationResult.Done();
            };
            out.add(res);
        }
        return new TransactionResult(out, inserted);
    }

    /** Reads one element: only the members its operation uses are decoded; a decoding failure is kept. */
    private static Element element(JsonParser p, Operation op, DatabaseSchema schema, ValueReader values)
            throws IOException {
        Element e = new Element();
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return e;
        }
        e.object = true;
        JsonStreamContext object = p.getParsingContext();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            try {
                switch (name) {
                    case "error" -> e.error = Json.MAPPER.readTree(p);
                    case "details" -> e.details = Json.MAPPER.readTree(p);
                    case "count" -> e.count = Json.MAPPER.readTree(p);
                    case "uuid" -> e.uuid = op instanceof Operation.Insert ? ValueReader.readUuid(p) : skip(p);
                    case "rows" ->
                        e.rows = op instanceof Operation.Select sel
                                ? rows(p, schema.require(sel.table()), values)
                                : skip(p);
                    default -> p.skipChildren();
                }
            } catch (RuntimeException failure) { // a malformed value, or a select of a table not in the schema
                ValueReader.skipRest(p, object);
                if (name.equals("uuid")) {
                    e.uuid = failure;
                } else {
                    e.rows = failure;
                }
            }
        }
        return e;
    }

    /** A select's rows; as a tree did, an object's member values count as rows and a scalar as none. */
    private static List<Row> rows(JsonParser p, TableSchema table, ValueReader values) throws IOException {
        List<Row> out = new ArrayList<>();
        if (!p.currentToken().isStructStart()) {
            return out;
        }
        JsonToken end = p.currentToken() == JsonToken.START_ARRAY ? JsonToken.END_ARRAY : JsonToken.END_OBJECT;
        for (JsonToken t = p.nextToken(); t != end; t = p.nextToken()) {
            if (t == JsonToken.FIELD_NAME) {
                p.nextToken();
            }
            out.add(values.readRow(p, table, NO_UUID));
        }
        return out;
    }

    private static Object skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    private static Object value(Object decoded, String missing) {
        if (decoded instanceof RuntimeException e) {
            throw e;
        }
        if (decoded == null) {
            throw new ProtocolException(missing);
        }
        return decoded;
    }

    private static long count(Element e) {
        return e.count == null ? 0 : e.count.asLong(); // as path("count").asLong() did
    }
}
