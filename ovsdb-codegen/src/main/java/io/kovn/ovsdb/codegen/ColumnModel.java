package io.kovn.ovsdb.codegen;

import io.kovn.ovsdb.schema.AtomicType;

/**
 * How one column looks in a generated record.
 *
 * @param column the column's schema name, e.g. {@code external_ids}
 * @param field the record component name, e.g. {@code externalIds}
 * @param constant the column-name constant, e.g. {@code EXTERNAL_IDS}
 * @param kind the column's shape
 * @param key the key (or sole) atom
 * @param value the value atom of a map, or {@code null}
 * @param refTable the table a uuid key refers to, or {@code null}
 */
record ColumnModel(
        String column, String field, String constant, Kind kind, AtomModel key, AtomModel value, String refTable) {

    /** A column's shape, following the canonical value forms of {@code Row}. */
    enum Kind {
        SCALAR,
        OPTIONAL,
        SET,
        MAP
    }

    /** The component's Java type. */
    String javaType() {
        return switch (kind) {
            case SCALAR -> key.scalar();
            case OPTIONAL -> "java.util.Optional<" + key.boxed() + ">";
            case SET -> "java.util.Set<" + key.boxed() + ">";
            case MAP -> "java.util.Map<" + key.boxed() + ", " + value.boxed() + ">";
        };
    }

    /** The Java expression of the column's value in a new row. */
    String defaultLiteral() {
        return switch (kind) {
            case SCALAR -> key.defaultLiteral();
            case OPTIONAL -> "java.util.Optional.empty()";
            case SET -> "java.util.Set.of()";
            case MAP -> "java.util.Map.of()";
        };
    }

    /** Whether the component may be {@code null}: a required, reference-typed atom not set yet. */
    boolean nullable() {
        return kind == Kind.SCALAR
                && (key.isEnum() || key.type() == AtomicType.STRING || key.type() == AtomicType.UUID);
    }
}
