package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.Uuid;
import java.util.Map;

/**
 * A row of a known table in typed form: what the records generated from an {@code .ovsschema} implement, so that typed
 * rows can be stated as desired state ({@link Desired#of(TypedRow)}) and read back from generic
 * {@link io.kovn.ovsdb.data.Row}s.
 */
public interface TypedRow {

    /** The row's {@code _uuid}, or {@code null} for a row not inserted yet. */
    Uuid uuid();

    /** The name of the row's table, e.g. {@code Logical_Switch_Port}. */
    String tableName();

    /**
     * The row's columns in canonical form (see {@link io.kovn.ovsdb.data.Row}); required columns whose value is not set
     * ({@code null}) are left out, so a caller may supply them otherwise (e.g. as a reference resolved by the diff).
     */
    Map<String, Object> toColumns();
}
