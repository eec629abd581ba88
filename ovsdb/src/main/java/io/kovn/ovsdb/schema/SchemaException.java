package io.kovn.ovsdb.schema;

/** A schema document that does not follow RFC 7047 section 3.2. */
public class SchemaException extends RuntimeException {
    public SchemaException(String message) {
        super(message);
    }
}
