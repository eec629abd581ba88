/**
 * OVSDB schemas (RFC 7047 section 3.2) as records: {@link io.kovn.ovsdb.schema.DatabaseSchema}, tables, columns, types
 * with their constraints, and {@link io.kovn.ovsdb.schema.SchemaVersion} compatibility. Pure; parsed from
 * {@code get_schema} or an {@code .ovsschema} file.
 */
package io.kovn.ovsdb.schema;
