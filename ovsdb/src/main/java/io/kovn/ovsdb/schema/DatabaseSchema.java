package io.kovn.ovsdb.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A database schema (RFC 7047 section 3.2), as returned by {@code get_schema} or read from an {@code .ovsschema} file.
 *
 * @param name the database name, e.g. {@code OVN_Northbound}
 * @param version the schema version
 * @param cksum the schema checksum, or {@code null}
 * @param tables table name to schema
 */
public record DatabaseSchema(String name, SchemaVersion version, String cksum, Map<String, TableSchema> tables) {

    public DatabaseSchema {
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
    }

    /** A table's schema, if present. */
    public Optional<TableSchema> table(String table) {
        return Optional.ofNullable(tables.get(table));
    }

    /** A table's schema; fails with a clear message for an unknown table. */
    public TableSchema require(String table) {
        TableSchema t = tables.get(table);
        if (t == null) {
            throw new SchemaException("database " + name + " has no table " + table);
        }
        return t;
    }

    /** Parses a schema from its JSON form. */
    public static DatabaseSchema fromJson(JsonNode json) {
        return SchemaParser.parse(json);
    }

    /** Parses a schema from JSON text. */
    public static DatabaseSchema parse(String json) {
        try {
            return fromJson(new ObjectMapper().readTree(json));
        } catch (IOException e) {
            throw new SchemaException("schema is not JSON: " + e.getMessage());
        }
    }

    /** Reads an {@code .ovsschema} file. */
    public static DatabaseSchema read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
