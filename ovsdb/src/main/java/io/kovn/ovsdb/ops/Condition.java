package io.kovn.ovsdb.ops;

import io.kovn.ovsdb.data.Uuid;
import java.util.Map;
import java.util.Objects;

/**
 * A {@code where} clause element: {@code [column, function, value]}, the value in canonical form (see
 * {@link io.kovn.ovsdb.data.Row}). Used by operations and by conditional monitors.
 *
 * @param column the column name ({@code _uuid} allowed)
 * @param function the comparison
 * @param value the canonical value compared with
 */
public record Condition(String column, Function function, Object value) {
    public Condition {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(value, "value");
        CanonicalValues.requireCanonical(column, value);
    }

    /** {@code column == value}. */
    public static Condition eq(String column, Object value) {
        return new Condition(column, Function.EQ, value);
    }

    /** {@code column != value}. */
    public static Condition ne(String column, Object value) {
        return new Condition(column, Function.NE, value);
    }

    /** {@code column includes value} (a set or map that contains all of value). */
    public static Condition includes(String column, Object value) {
        return new Condition(column, Function.INCLUDES, value);
    }

    /** {@code column excludes value}. */
    public static Condition excludes(String column, Object value) {
        return new Condition(column, Function.EXCLUDES, value);
    }

    /** The row with this uuid. */
    public static Condition uuid(Uuid uuid) {
        return eq("_uuid", uuid);
    }

    /** Rows whose {@code external_ids} holds {@code key=value}. */
    public static Condition externalId(String key, String value) {
        return includes("external_ids", Map.of(key, value));
    }

    /** The condition that always holds: OVSDB's {@code true} literal in monitor conditions. */
    public static Condition always() {
        return new Condition("_uuid", Function.NE, ALWAYS);
    }

    /** Marker value: the {@link #always()} condition. */
    static final Uuid ALWAYS = Uuid.of("00000000-0000-0000-0000-000000000000");
}
