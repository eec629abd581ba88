package io.kovn.controller.policy;

import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Ownership;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Function;
import io.kovn.ovsdb.ops.Operation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows a transaction in flight writes, to tell its own changes from someone else's in the
 * monitor updates that arrive meanwhile: the rows it updates, mutates or deletes (by uuid, as every
 * policy write names them) and the rows it inserts (by their {@link Owner#ID}, their uuids being
 * unknown until the reply). Any other change to a policy row during a write is drift, to repair.
 *
 * A row deleted because the transaction dropped its last reference (an ACL leaving its port group)
 * is named by no operation: the deletion of a row the transaction's scope owns and its desired state
 * does not hold counts as its own, whoever made it (there is nothing to repair).
 *
 * <p>One approximation, safe: someone else's change to a row this transaction also writes, arriving
 * in the same window, is taken for its own (the write it raced with decides that row).
 *
 * @param written rows the transaction updates, mutates or deletes
 * @param inserted per table, the ids of the rows it inserts
 * @param scope the rows the transaction's diff covered
 * @param desired what the transaction makes them
 */
record OwnWrites(Set<Uuid> written, Map<String, Set<String>> inserted, Ownership scope, DesiredState desired) {
    /** No transaction in flight: every change is someone else's. */
    static final OwnWrites NONE = new OwnWrites(Set.of(), Map.of(), ids -> false, DesiredState.builder().build());

    /** The rows {@code operations} write, planned from {@code desired} over the rows {@code scope} owns. */
    static OwnWrites of(List<? extends Operation> operations, Ownership scope, DesiredState desired) {
        Set<Uuid> written = new HashSet<>();
        Map<String, Set<String>> inserted = new HashMap<>();
        for (Operation op : operations) {
            switch (op) {
                case Operation.Insert i -> {
                    if (i.row().get("external_ids") instanceof Map<?, ?> ids && ids.get(Owner.ID) instanceof String id) {
                        inserted.computeIfAbsent(i.table(), t -> new HashSet<>()).add(id);
                    }
                }
                case Operation.Update u -> written.addAll(uuids(u.where()));
                case Operation.Mutate m -> written.addAll(uuids(m.where()));
                case Operation.Delete d -> written.addAll(uuids(d.where()));
                default -> { }
            }
        }
        return new OwnWrites(written, inserted, scope, desired);
    }

    private static List<Uuid> uuids(List<Condition> where) {
        return where.stream().filter(c -> c.column().equals("_uuid") && c.function() == Function.EQ && c.value() instanceof Uuid)
                .map(c -> (Uuid) c.value()).toList();
    }

    /** Whether the change is one this transaction makes. */
    boolean covers(RowChange change) {
        return switch (change) {
            case RowChange.Inserted i -> i.row().get("external_ids") instanceof Map<?, ?> ids
                    && ids.get(Owner.ID) instanceof String id && inserted.getOrDefault(i.table(), Set.of()).contains(id);
            case RowChange.Updated u -> written.contains(u.uuid());
            case RowChange.Deleted d -> written.contains(d.uuid()) || removes(d.table(), d.old());
        };
    }

    /** Whether the row is one the transaction's diff covered and does not want: it goes with the transaction. */
    private boolean removes(String table, Row row) {
        DesiredState.TableState state = desired.tables().get(table);
        if (state == null || !scope.owns(row)) {
            return false;
        }
        String key = state.key().of(row.columns());
        return key != null && state.scope().map(keys -> keys.contains(key)).orElse(true) && !state.rows().containsKey(key);
    }
}
