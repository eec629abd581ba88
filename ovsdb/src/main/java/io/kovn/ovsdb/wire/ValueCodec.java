package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.TableSchema;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts OVSDB values between their JSON form (RFC 7047 section 5.1) and kovn's canonical Java form (see
 * {@link Row}). Encoding needs no schema (the Java form says what it is); decoding uses the column type to pick atom,
 * set or map.
 */
public final class ValueCodec {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ValueCodec() {}

    /** Encodes a canonical value (atom, Set or Map). */
    public static JsonNode encode(Object value) {
        return switch (value) {
            case Set<?> set -> {
                ArrayNode elems = F.arrayNode(set.size());
                for (Object o : set) {
                    elems.add(encodeAtom(o));
                }
                yield F.arrayNode(2).add("set").add(elems);
            }
            case Map<?, ?> map -> {
                ArrayNode pairs = F.arrayNode(map.size());
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    pairs.add(F.arrayNode(2).add(encodeAtom(e.getKey())).add(encodeAtom(e.getValue())));
                }
                yield F.arrayNode(2).add("map").add(pairs);
            }
            case Collection<?> c -> encode(new HashSet<>(c));
            default -> encodeAtom(value);
        };
    }

    /** Encodes one atom. */
    public static JsonNode encodeAtom(Object atom) {
        return switch (atom) {
            case String s -> F.textNode(s);
            case Long l -> F.numberNode(l);
            case Integer i -> F.numberNode((long) i);
            case Double d -> F.numberNode(d);
            case Boolean b -> F.booleanNode(b);
            case Uuid u -> F.arrayNode(2).add("uuid").add(u.value());
            case NamedUuid n -> F.arrayNode(2).add("named-uuid").add(n.name());
            case null -> throw new IllegalArgumentException("null is not an OVSDB value");
            default ->
                throw new IllegalArgumentException(
                        "not an OVSDB atom: " + atom.getClass().getName());
        };
    }

    /** Encodes a row's columns as a JSON object. */
    public static ObjectNode encodeRow(Map<String, Object> columns) {
        ObjectNode o = F.objectNode();
        columns.forEach((k, v) -> o.set(k, encode(v)));
        return o;
    }

    /** Decodes a column value of the given type into canonical form. */
    public static Object decode(JsonNode json, ColumnType type) {
        if (type.isScalar()) {
            return decodeAtom(json, type.key());
        }
        if (type.isMap()) {
            if (!json.isArray()
                    || json.size() != 2
                    || !"map".equals(json.get(0).asText())
                    || !json.get(1).isArray()) {
                throw new ProtocolException("expected [\"map\", [...]], got " + abbreviate(json));
            }
            JsonNode pairs = json.get(1);
            Map<Object, Object> m = HashMap.newHashMap(pairs.size());
            for (JsonNode p : pairs) {
                if (!p.isArray() || p.size() != 2) {
                    throw new ProtocolException("map pair is not [key, value]: " + abbreviate(p));
                }
                m.put(decodeAtom(p.get(0), type.key()), decodeAtom(p.get(1), type.value()));
            }
            return Map.copyOf(m);
        }
        if (json.isArray() && json.size() == 2 && "set".equals(json.get(0).asText())) {
            JsonNode elems = json.get(1);
            if (!elems.isArray()) {
                throw new ProtocolException("set elements are not an array: " + abbreviate(json));
            }
            Set<Object> s = HashSet.newHashSet(elems.size());
            for (Iterator<JsonNode> it = elems.elements(); it.hasNext(); ) {
                s.add(decodeAtom(it.next(), type.key()));
            }
            return Set.copyOf(s);
        }
        return Set.of(decodeAtom(json, type.key()));
    }

    /** Decodes one atom of the given base type. */
    public static Object decodeAtom(JsonNode json, BaseType type) {
        if (json == null) {
            throw new ProtocolException("missing atom");
        }
        return switch (type.type()) {
            case STRING -> {
                if (!json.isTextual()) {
                    throw new ProtocolException("expected string, got " + abbreviate(json));
                }
                yield json.textValue();
            }
            case INTEGER -> {
                if (!json.isIntegralNumber()) {
                    throw new ProtocolException("expected integer, got " + abbreviate(json));
                }
                yield json.longValue();
            }
            case REAL -> {
                if (!json.isNumber()) {
                    throw new ProtocolException("expected real, got " + abbreviate(json));
                }
                yield json.doubleValue();
            }
            case BOOLEAN -> {
                if (!json.isBoolean()) {
                    throw new ProtocolException("expected boolean, got " + abbreviate(json));
                }
                yield json.booleanValue();
            }
            case UUID -> decodeUuid(json);
        };
    }

    /** Decodes {@code ["uuid", "..."]}. */
    public static Uuid decodeUuid(JsonNode json) {
        if (!json.isArray()
                || json.size() != 2
                || !"uuid".equals(json.get(0).asText())
                || !json.get(1).isTextual()) {
            throw new ProtocolException("expected [\"uuid\", ...], got " + abbreviate(json));
        }
        try {
            return Uuid.of(json.get(1).textValue());
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(e.getMessage(), e);
        }
    }

    /**
     * Decodes a row object. Columns unknown to the schema (a newer server) and {@code _uuid} / {@code _version} are
     * skipped.
     */
    public static Row decodeRow(Uuid uuid, JsonNode json, TableSchema table) {
        if (!json.isObject()) {
            throw new ProtocolException("row is not an object: " + abbreviate(json));
        }
        Map<String, Object> cols = HashMap.newHashMap(json.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            var column = table.columns().get(e.getKey());
            if (column != null) {
                cols.put(e.getKey(), decode(e.getValue(), column.type()));
            }
        }
        return new Row(uuid, cols);
    }

    /**
     * The value a column holds when a row does not set it (RFC 7047 3.2: empty set or map, or the atomic type's default
     * for a scalar).
     */
    public static Object defaultValue(ColumnType type) {
        if (type.isMap()) {
            return Map.of();
        }
        if (!type.isScalar()) {
            return Set.of();
        }
        return switch (type.key().type()) {
            case STRING -> ""; // also for enums: ovsdb-server's default ignores constraints
            case INTEGER -> 0L;
            case REAL -> 0.0;
            case BOOLEAN -> false;
            case UUID -> Uuid.of("00000000-0000-0000-0000-000000000000");
        };
    }

    /**
     * Decodes a row that may omit columns holding their default ({@code update2} inserts do), filling in the defaults
     * of {@code columns} (all of the table's when empty).
     */
    public static Row decodeFullRow(Uuid uuid, JsonNode json, TableSchema table, List<String> columns) {
        Row row = decodeRow(uuid, json, table);
        Iterable<String> wanted = columns.isEmpty() ? table.columns().keySet() : columns;
        Map<String, Object> cols = null;
        for (String c : wanted) {
            if (!row.columns().containsKey(c) && table.hasColumn(c)) {
                if (cols == null) {
                    cols = new HashMap<>(row.columns());
                }
                cols.put(c, defaultValue(table.type(c)));
            }
        }
        return cols == null ? row : new Row(uuid, cols);
    }

    static String abbreviate(JsonNode json) {
        String s = String.valueOf(json);
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}
