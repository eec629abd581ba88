package io.kovn.ovsdb.client;

import io.kovn.ovsdb.schema.SchemaVersion;

/** The server's schema version cannot serve a client written for another version. */
public class SchemaMismatchException extends OvsdbException {
    private final String database;
    private final SchemaVersion expected;
    private final SchemaVersion actual;

    public SchemaMismatchException(String database, SchemaVersion expected, SchemaVersion actual) {
        super("database " + database + " has schema version " + actual + " but this client needs " + expected.major()
                + ".x with x >= " + expected.minor() + " (written for " + expected + ")");
        this.database = database;
        this.expected = expected;
        this.actual = actual;
    }

    public String database() {
        return database;
    }

    public SchemaVersion expected() {
        return expected;
    }

    public SchemaVersion actual() {
        return actual;
    }
}
