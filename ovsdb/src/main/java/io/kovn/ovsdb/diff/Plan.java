package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.ops.Operation;
import java.util.List;

/**
 * The operations that take the current rows to the desired ones, to be sent as one transaction; empty when the system
 * has converged.
 *
 * @param operations inserts (referenced rows first), updates, mutates, deletes
 * @param counts how many operations of each kind
 */
public record Plan(List<Operation> operations, Counts counts) {

    /**
     * Operation counts of a plan.
     *
     * @param inserts rows inserted
     * @param updates rows whose changed columns are rewritten
     * @param mutates rows whose set/map columns are mutated (element inserts and deletes)
     * @param deletes rows deleted
     */
    public record Counts(int inserts, int updates, int mutates, int deletes) {
        /** The total number of operations. */
        public int total() {
            return inserts + updates + mutates + deletes;
        }
    }

    public Plan {
        operations = List.copyOf(operations);
    }

    /** A plan from its operations. */
    public static Plan of(List<Operation> operations) {
        int ins = 0;
        int upd = 0;
        int mut = 0;
        int del = 0;
        for (Operation op : operations) {
            switch (op) {
                case Operation.Insert i -> ins++;
                case Operation.Update u -> upd++;
                case Operation.Mutate m -> mut++;
                case Operation.Delete d -> del++;
                default -> {}
            }
        }
        return new Plan(operations, new Counts(ins, upd, mut, del));
    }

    /**
     * Plans of disjoint owners (or of disjoint scopes of one owner) as one transaction: their inserts (uuid-names made
     * distinct), updates, mutates (one per row: several plans' attachments to one parent become one mutate) and
     * deletes. Applying the result does what applying each plan would, in one transaction;
     * {@link DatabaseReconciler#apply} reports it {@code Stale} when any part was.
     *
     * @throws IllegalArgumentException when the plans are not disjoint (one inserts into a parent's column what another
     *     deletes from it)
     */
    public static Plan concat(List<Plan> plans) {
        return plans.isEmpty() ? of(List.of()) : PlanConcat.of(plans);
    }

    /** Whether nothing needs to change. */
    public boolean isEmpty() {
        return operations.isEmpty();
    }
}
