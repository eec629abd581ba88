package io.kovn.ovsdb.schema;

import java.util.Optional;
import java.util.Set;

/**
 * The type of a key or value atom, with its constraints (RFC 7047 {@code <base-type>}).
 *
 * @param type the atomic type
 * @param enumValues allowed values in canonical form, empty when unconstrained
 * @param minInteger lower bound for integers, or {@code null}
 * @param maxInteger upper bound for integers, or {@code null}
 * @param minReal lower bound for reals, or {@code null}
 * @param maxReal upper bound for reals, or {@code null}
 * @param minLength minimum string length, or {@code null}
 * @param maxLength maximum string length, or {@code null}
 * @param refTable the table a uuid refers to, or {@code null}
 * @param strongRef whether a uuid reference is strong (ignored when {@code refTable} is null)
 */
public record BaseType(
        AtomicType type,
        Set<Object> enumValues,
        Long minInteger,
        Long maxInteger,
        Double minReal,
        Double maxReal,
        Long minLength,
        Long maxLength,
        String refTable,
        boolean strongRef) {

    public BaseType {
        enumValues = Set.copyOf(enumValues);
    }

    /** An unconstrained base type. */
    public static BaseType of(AtomicType type) {
        return new BaseType(type, Set.of(), null, null, null, null, null, null, null, false);
    }

    /** Whether the atoms are restricted to an enumeration. */
    public boolean isEnum() {
        return !enumValues.isEmpty();
    }

    /** The referenced table, if this is a uuid reference. */
    public Optional<String> ref() {
        return Optional.ofNullable(refTable);
    }
}
