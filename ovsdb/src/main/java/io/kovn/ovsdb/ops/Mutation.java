package io.kovn.ovsdb.ops;

import java.util.Objects;
import java.util.Set;

/**
 * A mutation {@code [column, mutator, value]}, the value in canonical form.
 *
 * @param column the column name
 * @param mutator the mutator
 * @param value the canonical value (a set or map for insert/delete; a number for arithmetic)
 */
public record Mutation(String column, Mutator mutator, Object value) {
    public Mutation {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(mutator, "mutator");
        Objects.requireNonNull(value, "value");
        CanonicalValues.requireCanonical(column, value);
    }

    /** Adds elements to a set column, or pairs to a map column (a {@code java.util.Map}). */
    public static Mutation insert(String column, Object elements) {
        return new Mutation(column, Mutator.INSERT, elements);
    }

    /** Removes elements from a set column, or keys (a Set) / pairs (a Map) from a map column. */
    public static Mutation delete(String column, Object elements) {
        return new Mutation(column, Mutator.DELETE, elements);
    }

    /** Adds one element to a set column. */
    public static Mutation insertOne(String column, Object element) {
        return insert(column, Set.of(element));
    }

    /** Removes one element from a set column. */
    public static Mutation deleteOne(String column, Object element) {
        return delete(column, Set.of(element));
    }

    /** Arithmetic {@code column += delta}. */
    public static Mutation add(String column, Number delta) {
        return new Mutation(column, Mutator.ADD, delta);
    }
}
