package io.kovn.ovsdb.schema;

/**
 * A column's type: a key type, an optional value type (maps), and cardinality bounds.
 *
 * @param key the key (or sole) atom type
 * @param value the value atom type for maps, or {@code null}
 * @param min the minimum number of elements (0 or 1)
 * @param max the maximum number of elements; {@link #UNLIMITED} for "unlimited"
 */
public record ColumnType(BaseType key, BaseType value, long min, long max) {
    /** The {@code max} of an unlimited set or map. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    public ColumnType {
        if (key == null) {
            throw new SchemaException("column type without key");
        }
        if (min < 0 || min > 1 || max < 1 || min > max) {
            throw new SchemaException("bad column bounds min=" + min + " max=" + max);
        }
    }

    /** A scalar column of one atomic type. */
    public static ColumnType scalar(AtomicType type) {
        return new ColumnType(BaseType.of(type), null, 1, 1);
    }

    /** Whether values are maps (a value type is present). */
    public boolean isMap() {
        return value != null;
    }

    /** Whether a value is exactly one atom: canonical form is the atom itself. */
    public boolean isScalar() {
        return value == null && min == 1 && max == 1;
    }

    /** Whether the column holds zero or one atom (canonical form: a set of size 0 or 1). */
    public boolean isOptional() {
        return value == null && min == 0 && max == 1;
    }

    /** Whether an atom of the column can be a uuid (a row reference or a named uuid). */
    public boolean holdsUuids() {
        return key.type() == AtomicType.UUID || (value != null && value.type() == AtomicType.UUID);
    }

    /** Whether the column is a set of atoms (optional columns included). */
    public boolean isSet() {
        return value == null && !isScalar();
    }
}
