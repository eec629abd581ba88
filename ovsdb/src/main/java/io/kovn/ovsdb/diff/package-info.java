/**
 * The ownership diff all controllers use to write OVN: a controller states the complete desired rows of one owner, and
 * the diff turns them into the minimal operations against the current rows (the monitor cache), applied as one
 * transaction.
 *
 * <pre>{@code
 * DesiredState desired = policyModel.desired(snapshot);          // pure: records in, rows out
 * Plan plan = Diff.of(schema, owner, desired, CurrentState.of(cache));
 * client.transact("OVN_Northbound", plan.operations());          // or: reconciler.reconcile(owner, desired)
 * }</pre>
 *
 * <ul>
 *   <li>{@link io.kovn.ovsdb.diff.Owner}: which rows are the reconcile's (external_ids predicate); all others are never
 *       touched;
 *   <li>{@link io.kovn.ovsdb.diff.Desired} / {@link io.kovn.ovsdb.diff.DesiredState}: rows by key
 *       ({@link io.kovn.ovsdb.diff.RowKey}), generic or from generated {@link io.kovn.ovsdb.diff.TypedRow}s, referring
 *       to each other with {@link io.kovn.ovsdb.diff.Ref};
 *   <li>{@link io.kovn.ovsdb.diff.Diff} → {@link io.kovn.ovsdb.diff.Plan}: pure;
 *   <li>{@link io.kovn.ovsdb.diff.DatabaseReconciler} → {@link io.kovn.ovsdb.diff.PlanOutcome}: applies a plan in one
 *       transaction and checks every result.
 * </ul>
 */
package io.kovn.ovsdb.diff;
