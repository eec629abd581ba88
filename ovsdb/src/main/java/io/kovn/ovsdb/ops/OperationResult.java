package io.kovn.ovsdb.ops;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.List;

/** The successful result of one operation of a transaction. */
public sealed interface OperationResult {

    /** An insert's new row uuid. */
    record Inserted(Uuid uuid) implements OperationResult {}

    /** A select's rows (only the selected columns; {@code _uuid} when selected or by default). */
    record Selected(List<Row> rows) implements OperationResult {
        public Selected {
            rows = List.copyOf(rows);
        }
    }

    /** How many rows an update, mutate or delete matched. */
    record Counted(long count) implements OperationResult {}

    /** wait, commit, abort, comment and assert: nothing to report. */
    record Done() implements OperationResult {}
}
