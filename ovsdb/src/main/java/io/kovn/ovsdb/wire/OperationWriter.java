package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Streams operations as RFC 7047 JSON straight into a generator (no intermediate tree), so a large transaction is
 * encoded while it is being sent. Output is identical to {@link OperationCodec}.
 */
public final class OperationWriter {
    private OperationWriter() {}

    /** Writes the {@code transact} params array: the database name followed by the operations. */
    public static void writeTransactParams(JsonGenerator g, String db, List<? extends Operation> ops)
            throws IOException {
        g.writeStartArray();
        g.writeString(db);
        for (Operation op : ops) {
            write(g, op);
        }
        g.writeEndArray();
    }

    /** Writes one operation object. */
    public static void write(JsonGenerator g, Operation op) throws IOException {
        g.writeStartObject();
        g.writeStringField("op", op.op());
        switch (op) {
            case Operation.Insert i -> {
                g.writeStringField("table", i.table());
                g.writeFieldName("row");
                writeRow(g, i.row());
                if (i.uuidName() != null) {
                    g.writeStringField("uuid-name", i.uuidName());
                }
            }
            case Operation.Select s -> {
                g.writeStringField("table", s.table());
                writeWhere(g, s.where());
                if (!s.columns().isEmpty()) {
                    writeStrings(g, "columns", s.columns());
                }
            }
            case Operation.Update u -> {
                g.writeStringField("table", u.table());
                writeWhere(g, u.where());
                g.writeFieldName("row");
                writeRow(g, u.row());
            }
            case Operation.Mutate m -> {
                g.writeStringField("table", m.table());
                writeWhere(g, m.where());
                g.writeArrayFieldStart("mutations");
                for (Mutation mu : m.mutations()) {
                    g.writeStartArray();
                    g.writeString(mu.column());
                    g.writeString(mu.mutator().json());
                    writeValue(g, mu.value());
                    g.writeEndArray();
                }
                g.writeEndArray();
            }
            case Operation.Delete d -> {
                g.writeStringField("table", d.table());
                writeWhere(g, d.where());
            }
            case Operation.Wait w -> {
                g.writeStringField("table", w.table());
                writeWhere(g, w.where());
                writeStrings(g, "columns", w.columns());
                g.writeStringField("until", w.until().json());
                g.writeArrayFieldStart("rows");
                for (Map<String, Object> r : w.rows()) {
                    writeRow(g, r);
                }
                g.writeEndArray();
                if (w.timeoutMillis() != null) {
                    g.writeNumberField("timeout", w.timeoutMillis());
                }
            }
            case Operation.Commit c -> g.writeBooleanField("durable", c.durable());
            case Operation.Abort a -> {}
            case Operation.Comment c -> g.writeStringField("comment", c.comment());
            case Operation.Assert a -> g.writeStringField("lock", a.lock());
        }
        g.writeEndObject();
    }

    private static void writeWhere(JsonGenerator g, List<Condition> where) throws IOException {
        g.writeArrayFieldStart("where");
        for (Condition c : where) {
            g.writeStartArray();
            g.writeString(c.column());
            g.writeString(c.function().json());
            writeValue(g, c.value());
            g.writeEndArray();
        }
        g.writeEndArray();
    }

    private static void writeStrings(JsonGenerator g, String field, List<String> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    /** Writes a row's columns as an object. */
    public static void writeRow(JsonGenerator g, Map<String, Object> row) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, Object> e : row.entrySet()) {
            g.writeFieldName(e.getKey());
            writeValue(g, e.getValue());
        }
        g.writeEndObject();
    }

    /** Writes a canonical value (atom, Set or Map). */
    public static void writeValue(JsonGenerator g, Object value) throws IOException {
        switch (value) {
            case Map<?, ?> map -> {
                g.writeStartArray();
                g.writeString("map");
                g.writeStartArray();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    g.writeStartArray();
                    writeAtom(g, e.getKey());
                    writeAtom(g, e.getValue());
                    g.writeEndArray();
                }
                g.writeEndArray();
                g.writeEndArray();
            }
            case Collection<?> set -> {
                g.writeStartArray();
                g.writeString("set");
                g.writeStartArray();
                for (Object o : set instanceof Set<?> ? set : new LinkedHashSet<>(set)) {
                    if (o instanceof String str) {
                        g.writeString(str);
                    } else {
                        writeAtom(g, o);
                    }
                }
                g.writeEndArray();
                g.writeEndArray();
            }
            default -> writeAtom(g, value);
        }
    }

    private static void writeAtom(JsonGenerator g, Object atom) throws IOException {
        // Strings first and by instanceof: a zone's first write has a million address atoms, and a
        // pattern switch dispatches through a method handle, which the C1 compiler kovn runs with
        // (deploy/) does not inline: the dispatch was most of this method's own time in a profile.
        if (atom instanceof String s) {
            g.writeString(s);
            return;
        }
        switch (atom) {
            case Long l -> g.writeNumber(l);
            case Integer i -> g.writeNumber((long) i);
            case Double d -> g.writeNumber(d);
            case Boolean b -> g.writeBoolean(b);
            case Uuid u -> {
                g.writeStartArray();
                g.writeString("uuid");
                g.writeString(u.value());
                g.writeEndArray();
            }
            case NamedUuid n -> {
                g.writeStartArray();
                g.writeString("named-uuid");
                g.writeString(n.name());
                g.writeEndArray();
            }
            case null -> throw new IllegalArgumentException("null is not an OVSDB value");
            default ->
                throw new IllegalArgumentException(
                        "not an OVSDB atom: " + atom.getClass().getName());
        }
    }
}
