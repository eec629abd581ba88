package io.kovn.ovsdb.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.data.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns RFC 7047 schema JSON into schema records. */
final class SchemaParser {
    private SchemaParser() {}

    static DatabaseSchema parse(JsonNode json) {
        String name = text(json, "name");
        SchemaVersion version =
                json.has("version") ? SchemaVersion.parse(text(json, "version")) : new SchemaVersion(0, 0, 0);
        String cksum = json.has("cksum") ? json.get("cksum").asText() : null;
        JsonNode tablesJson = json.get("tables");
        if (tablesJson == null || !tablesJson.isObject()) {
            throw new SchemaException("schema " + name + " has no tables object");
        }
        Map<String, TableSchema> tables = new LinkedHashMap<>();
        tablesJson.fields().forEachRemaining(e -> tables.put(e.getKey(), table(e.getKey(), e.getValue())));
        return new DatabaseSchema(name, version, cksum, tables);
    }

    private static TableSchema table(String name, JsonNode json) {
        Map<String, ColumnSchema> columns = new LinkedHashMap<>();
        JsonNode cols = json.get("columns");
        if (cols == null || !cols.isObject()) {
            throw new SchemaException("table " + name + " has no columns object");
        }
        cols.fields().forEachRemaining(e -> {
            JsonNode c = e.getValue();
            columns.put(
                    e.getKey(),
                    new ColumnSchema(
                            e.getKey(),
                            columnType(name + "." + e.getKey(), c.get("type")),
                            c.path("ephemeral").asBoolean(false),
                            c.path("mutable").asBoolean(true)));
        });
        List<Set<String>> indexes = new ArrayList<>();
        for (JsonNode index : json.path("indexes")) {
            Set<String> cs = new LinkedHashSet<>();
            index.forEach(c -> cs.add(c.asText()));
            indexes.add(cs);
        }
        // RFC 7047: isRoot defaults to false; OVSDB treats a schema without any isRoot as all-root.
        boolean isRoot = json.path("isRoot").asBoolean(false);
        Long maxRows = json.has("maxRows") ? json.get("maxRows").asLong() : null;
        return new TableSchema(name, columns, isRoot, indexes, maxRows);
    }

    static ColumnType columnType(String where, JsonNode json) {
        if (json == null) {
            throw new SchemaException(where + ": missing type");
        }
        if (json.isTextual()) {
            return ColumnType.scalar(AtomicType.fromJson(json.asText()));
        }
        BaseType key = baseType(where, json.get("key"));
        BaseType value = json.has("value") ? baseType(where, json.get("value")) : null;
        long min = json.path("min").asLong(1);
        JsonNode maxJson = json.get("max");
        long max = maxJson == null
                ? 1
                : maxJson.isTextual() && maxJson.asText().equals("unlimited") ? ColumnType.UNLIMITED : maxJson.asLong();
        return new ColumnType(key, value, min, max);
    }

    private static BaseType baseType(String where, JsonNode json) {
        if (json == null) {
            throw new SchemaException(where + ": missing key type");
        }
        if (json.isTextual()) {
            return BaseType.of(AtomicType.fromJson(json.asText()));
        }
        AtomicType type = AtomicType.fromJson(text(json, "type"));
        Set<Object> enumValues = new HashSet<>();
        JsonNode e = json.get("enum");
        if (e != null) {
            if (e.isArray()
                    && e.size() == 2
                    && "set".equals(e.get(0).asText())
                    && e.get(1).isArray()) {
                e.get(1).forEach(a -> enumValues.add(atom(type, a)));
            } else {
                enumValues.add(atom(type, e));
            }
        }
        return new BaseType(
                type,
                enumValues,
                json.has("minInteger") ? json.get("minInteger").asLong() : null,
                json.has("maxInteger") ? json.get("maxInteger").asLong() : null,
                json.has("minReal") ? json.get("minReal").asDouble() : null,
                json.has("maxReal") ? json.get("maxReal").asDouble() : null,
                json.has("minLength") ? json.get("minLength").asLong() : null,
                json.has("maxLength") ? json.get("maxLength").asLong() : null,
                json.has("refTable") ? json.get("refTable").asText() : null,
                !json.has("refType") || json.get("refType").asText().equals("strong"));
    }

    private static Object atom(AtomicType type, JsonNode a) {
        return switch (type) {
            case STRING -> a.asText();
            case INTEGER -> a.asLong();
            case REAL -> a.asDouble();
            case BOOLEAN -> a.asBoolean();
            case UUID -> Uuid.of(a.get(1).asText());
        };
    }

    private static String text(JsonNode json, String field) {
        JsonNode v = json.get(field);
        if (v == null || !v.isTextual()) {
            throw new SchemaException("schema object lacks string field " + field);
        }
        return v.asText();
    }
}
