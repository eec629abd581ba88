package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import java.util.List;

/** Writes operations, conditions and mutations in their RFC 7047 JSON form. */
public final class OperationCodec {
    private OperationCodec() {}

    /** The {@code transact} params: the database name followed by the operations. */
    public static ArrayNode transactParams(String db, List<? extends Operation> ops) {
        ArrayNode params = Json.array().add(db);
        for (Operation op : ops) {
            params.add(encode(op));
        }
        return params;
    }

    /** One operation object. */
    public static ObjectNode encode(Operation op) {
        ObjectNode o = Json.object().put("op", op.op());
        switch (op) {
            case Operation.Insert i -> {
                o.put("table", i.table()).set("row", ValueCodec.encodeRow(i.row()));
                if (i.uuidName() != null) {
                    o.put("uuid-name", i.uuidName());
                }
            }
            case Operation.Select s -> {
                o.put("table", s.table()).set("where", where(s.where()));
                if (!s.columns().isEmpty()) {
                    o.set("columns", strings(s.columns()));
                }
            }
            case Operation.Update u -> {
                o.put("table", u.table()).set("where", where(u.where()));
                o.set("row", ValueCodec.encodeRow(u.row()));
            }
            case Operation.Mutate m -> {
                o.put("table", m.table()).set("where", where(m.where()));
                ArrayNode ms = o.putArray("mutations");
                for (Mutation mu : m.mutations()) {
                    ms.add(Json.array()
                            .add(mu.column())
                            .add(mu.mutator().json())
                            .add(ValueCodec.encode(mu.value())));
                }
            }
            case Operation.Delete d -> o.put("table", d.table()).set("where", where(d.where()));
            case Operation.Wait w -> {
                o.put("table", w.table()).set("where", where(w.where()));
                o.set("columns", strings(w.columns()));
                o.put("until", w.until().json());
                ArrayNode rows = o.putArray("rows");
                w.rows().forEach(r -> rows.add(ValueCodec.encodeRow(r)));
                if (w.timeoutMillis() != null) {
                    o.put("timeout", w.timeoutMillis());
                }
            }
            case Operation.Commit c -> o.put("durable", c.durable());
            case Operation.Abort a -> {}
            case Operation.Comment c -> o.put("comment", c.comment());
            case Operation.Assert a -> o.put("lock", a.lock());
        }
        return o;
    }

    /** A {@code where} array. */
    public static ArrayNode where(List<Condition> conditions) {
        ArrayNode a = Json.array();
        for (Condition c : conditions) {
            a.add(condition(c));
        }
        return a;
    }

    /** One {@code [column, function, value]} condition. */
    public static JsonNode condition(Condition c) {
        return Json.array().add(c.column()).add(c.function().json()).add(ValueCodec.encode(c.value()));
    }

    private static ArrayNode strings(List<String> list) {
        ArrayNode a = Json.array();
        list.forEach(a::add);
        return a;
    }
}
