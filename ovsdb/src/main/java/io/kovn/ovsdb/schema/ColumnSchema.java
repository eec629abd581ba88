package io.kovn.ovsdb.schema;

/**
 * One column of a table schema.
 *
 * @param name the column name
 * @param type the column type
 * @param ephemeral whether the column is not persisted
 * @param mutable whether the column may change after insert
 */
public record ColumnSchema(String name, ColumnType type, boolean ephemeral, boolean mutable) {}
