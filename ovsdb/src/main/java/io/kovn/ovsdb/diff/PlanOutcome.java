package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.TransactionResult;
import java.util.List;

/** What one {@link DatabaseReconciler#reconcile} did. */
public sealed interface PlanOutcome {

    /** Nothing to change: the owner's rows already equal the desired ones. */
    record Noop() implements PlanOutcome {}

    /**
     * The plan was applied in one transaction and every operation did what it was planned to do.
     *
     * @param counts operation counts
     * @param result the server's results
     */
    record Applied(Plan.Counts counts, TransactionResult result) implements PlanOutcome {}

    /**
     * The transaction committed but some update, mutate or delete matched no row: the current state the plan was made
     * from was behind the server. Reconcile again once the cache has caught up.
     *
     * @param counts operation counts
     * @param missed the operations that matched no row
     */
    record Stale(Plan.Counts counts, List<Operation> missed) implements PlanOutcome {
        public Stale {
            missed = List.copyOf(missed);
        }
    }
}
