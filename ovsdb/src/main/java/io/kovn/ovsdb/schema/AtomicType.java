package io.kovn.ovsdb.schema;

import java.util.Locale;

/** The five OVSDB atomic types (RFC 7047 section 3.2). */
public enum AtomicType {
    INTEGER,
    REAL,
    BOOLEAN,
    STRING,
    UUID;

    /** The type's name as it appears in a schema ({@code "integer"}, ...). */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a schema type name. */
    public static AtomicType fromJson(String name) {
        for (AtomicType t : values()) {
            if (t.jsonName().equals(name)) {
                return t;
            }
        }
        throw new SchemaException("unknown atomic type: " + name);
    }
}
