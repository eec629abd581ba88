package io.kovn.controller.policy;

import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Ownership;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Function;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Mutator;
import io.kovn.ovsdb.ops.Operation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The rows a transaction in flight writes, to tell its own changes from someone else's in the monitor updates that
 * arrive meanwhile: the rows it updates, mutates or deletes (by uuid, as every policy write names them) and the rows it
 * inserts (by their {@link Owner#ID}, their uuids being unknown until the reply). Any other change to a policy row
 * during a write is drift, to repair.
 *
 * <p>A transaction changes each of its rows once, and ovsdb-server reports that in one update: a second change of the
 * same row (or a second insert of the same id) in the window is someone else's, and so is a change that is not what the
 * transaction's operations make of the old row (someone else's commit reported in the same update: other columns
 * changed, or a set column whose server diff toggles other elements than the mutation names).
 *
 * <p>A row deleted because the transaction dropped its last reference (an ACL leaving its port group) is named by no
 * operation: the deletion of a row the transaction's diff covered and does not want counts as its own, whoever made it
 * (there is nothing to repair).
 *
 * <p>Without the server's column diffs (a plain {@code monitor}) one case stays unseen: someone else's commit in the
 * same update that swaps elements of a set the transaction mutates, keeping its size. A full diff (a restart, a cache
 * resync, {@code PolicyController.resync()}) repairs it.
 *
 * <p>{@link #covers} runs on the NB monitor's thread only.
 */
final class OwnWrites {
    /** No transaction in flight: every change is someone else's. */
    static final OwnWrites NONE = new OwnWrites(
            Map.of(), Set.of(), Map.of(), ids -> false, DesiredState.builder().build());

    /** The update and mutate operations of each row the transaction changes. */
    private final Map<Uuid, List<Operation>> changes;

    private final Set<Uuid> deleted;
    private final Map<String, Set<String>> inserted;
    private final Ownership scope;
    private final DesiredState desired;
    /** The rows (uuids) and inserts ({@code table/id}) already reported once. */
    private final Set<Object> reported = new HashSet<>();

    /**
     * @param changes the update and mutate operations of each row the transaction changes
     * @param deleted rows the transaction deletes
     * @param inserted per table, the ids of the rows it inserts
     * @param scope the rows the transaction's diff covered
     * @param desired what the transaction makes them
     */
    private OwnWrites(
            Map<Uuid, List<Operation>> changes,
            Set<Uuid> deleted,
            Map<String, Set<String>> inserted,
            Ownership scope,
            DesiredState desired) {
        this.changes = changes;
        this.deleted = deleted;
        this.inserted = inserted;
        this.scope = scope;
        this.desired = desired;
    }

    /** The rows {@code operations} write, planned from {@code desired} over the rows {@code scope} owns. */
    static OwnWrites of(List<? extends Operation> operations, Ownership scope, DesiredState desired) {
        Map<Uuid, List<Operation>> changes = new HashMap<>();
        Set<Uuid> deleted = new HashSet<>();
        Map<String, Set<String>> inserted = new HashMap<>();
        for (Operation op : operations) {
            switch (op) {
                case Operation.Insert i -> {
                    String id = idOf(i.row());
                    if (id != null) {
                        inserted.computeIfAbsent(i.table(), t -> new HashSet<>())
                                .add(id);
                    }
                }
                case Operation.Update u ->
                    uuids(u.where())
                            .forEach(r -> changes.computeIfAbsent(r, k -> new ArrayList<>())
                                    .add(u));
                case Operation.Mutate m ->
                    uuids(m.where())
                            .forEach(r -> changes.computeIfAbsent(r, k -> new ArrayList<>())
                                    .add(m));
                case Operation.Delete d -> deleted.addAll(uuids(d.where()));
                default -> {}
            }
        }
        return new OwnWrites(changes, deleted, inserted, scope, desired);
    }

    private static List<Uuid> uuids(List<Condition> where) {
        if (where.size() == 1
                && where.getFirst().value() instanceof Uuid u
                && where.getFirst().column().equals("_uuid")
                && where.getFirst().function() == Function.EQ) {
            return List.of(u); // every policy write's form
        }
        return where.stream()
                .filter(c -> c.column().equals("_uuid") && c.function() == Function.EQ && c.value() instanceof Uuid)
                .map(c -> (Uuid) c.value())
                .toList();
    }

    private static String idOf(Map<String, Object> columns) {
        return columns.get("external_ids") instanceof Map<?, ?> ids && ids.get(Owner.ID) instanceof String id
                ? id
                : null;
    }

    /** Whether the change is one this transaction makes. */
    boolean covers(RowChange change) {
        return switch (change) {
            case RowChange.Inserted i -> {
                String id = idOf(i.row().columns());
                yield id != null
                        && inserted.getOrDefault(i.table(), Set.of()).contains(id)
                        && reported.add(i.table() + "/" + id);
            }
            case RowChange.Updated u ->
                written(u.uuid())
                        && reported.add(u.uuid())
                        && madeBy(changes.getOrDefault(u.uuid(), List.of()), u.old(), u.row(), u.columnDiffs());
            case RowChange.Deleted d -> (written(d.uuid()) && reported.add(d.uuid())) || removes(d.table(), d.old());
        };
    }

    private boolean written(Uuid row) {
        return changes.containsKey(row) || deleted.contains(row);
    }

    /**
     * Whether the change is a port group losing members that are gone and nothing else: ovsdb-server removing weak
     * references to deleted switch ports (whoever deleted them), not drift.
     *
     * @param portExists whether a logical switch port with this uuid exists (in the cache that already applied the
     *     update carrying the change)
     */
    static boolean droppedGonePorts(RowChange change, Predicate<Uuid> portExists) {
        if (!(change instanceof RowChange.Updated u)
                || !u.table().equals("Port_Group")
                || !(u.old().get("ports") instanceof Set<?> before)
                || !(u.row().get("ports") instanceof Set<?> after)) {
            return false;
        }
        Map<String, Object> rest = new HashMap<>(u.row().columns());
        rest.put("ports", before);
        if (!rest.equals(u.old().columns()) || !before.containsAll(after)) {
            return false;
        }
        return before.stream()
                .filter(p -> !after.contains(p))
                .allMatch(p -> p instanceof Uuid port && !portExists.test(port));
    }

    /**
     * Whether {@code now} is what {@code ops} make of {@code old}, as far as O(operation) checks tell: the columns no
     * operation names are unchanged, an updated column holds the value written, a set column's inserts and deletes
     * leave each element they name as the last of them says and change no other element: checked against the server's
     * diff ({@code diffs}, the change's {@link RowChange.Updated#columnDiffs()}) or, without one, by the size they give
     * the set. A column both updated and mutated, one naming rows the transaction inserts, maps and arithmetic are
     * taken as written.
     */
    static boolean madeBy(List<Operation> ops, Row old, Row now) {
        return madeBy(ops, old, now, null);
    }

    static boolean madeBy(List<Operation> ops, Row old, Row now, Map<String, Object> diffs) {
        // plain loops, no maps: this runs for each row of a transaction, before its reply is read
        for (Map.Entry<String, Object> e : old.columns().entrySet()) {
            if (!columnMadeBy(ops, e.getKey(), e.getValue(), now.get(e.getKey()), diffs)) {
                return false;
            }
        }
        if (now.columns().size() != old.columns().size()) {
            for (Map.Entry<String, Object> e : now.columns().entrySet()) {
                if (!old.columns().containsKey(e.getKey())
                        && !columnMadeBy(ops, e.getKey(), null, e.getValue(), diffs)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean columnMadeBy(
            List<Operation> ops, String column, Object before, Object after, Map<String, Object> diffs) {
        Object written = null;
        boolean isWritten = false;
        List<Mutation> mutations = null;
        for (Operation op : ops) {
            if (op instanceof Operation.Update u && u.row().containsKey(column)) {
                written = u.row().get(column);
                isWritten = true;
            } else if (op instanceof Operation.Mutate m) {
                for (Mutation mu : m.mutations()) {
                    if (mu.column().equals(column)) {
                        if (mutations == null) {
                            mutations = new ArrayList<>(2);
                        }
                        mutations.add(mu);
                    }
                }
            }
        }
        if (isWritten && mutations != null || isWritten && namesNewRows(written)) {
            return true;
        }
        if (isWritten) {
            return Objects.equals(written, after);
        }
        if (mutations != null) {
            for (Mutation mu : mutations) {
                if (namesNewRows(mu.value())) {
                    return true; // references to rows this transaction inserts: their uuids are not known here
                }
            }
            return mutatedAs(mutations, before, after, diffs == null ? null : diffs.getOrDefault(column, Set.of()));
        }
        return before == after || Objects.equals(before, after);
    }

    private static boolean namesNewRows(Object value) {
        if (value instanceof NamedUuid) {
            return true;
        }
        if (value instanceof Collection<?> c) {
            for (Object e : c) {
                if (e instanceof NamedUuid) {
                    return true;
                }
            }
        } else if (value instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (e.getKey() instanceof NamedUuid || e.getValue() instanceof NamedUuid) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A set column's inserts and deletes, checked by the membership of the elements they name and by the server's diff
     * ({@code toggled}: exactly the elements that changed) or, without one, the size they give (which someone else's
     * swap of other elements in the same update would keep).
     */
    private static boolean mutatedAs(List<Mutation> mutations, Object before, Object after, Object toggled) {
        if (!(before instanceof Set<?> was) || !(after instanceof Set<?> is)) {
            return true; // a map or a number: not checked
        }
        for (Mutation m : mutations) {
            if (!(m.value() instanceof Set<?>) || (m.mutator() != Mutator.INSERT && m.mutator() != Mutator.DELETE)) {
                return true;
            }
        }
        int size = was.size();
        int changed = 0;
        // a set of at most one element (an optional column) gets its new value as its diff, not what
        // toggled; such a set cannot hide a swap either, so its size tells enough
        Set<?> diff = toggled instanceof Set<?> t && (was.size() > 1 || is.size() > 1) ? t : null;
        for (int i = 0; i < mutations.size(); i++) {
            for (Object e : (Set<?>) mutations.get(i).value()) {
                if (namedLater(mutations, i, e)) {
                    continue; // a later mutation decides this element
                }
                boolean present = mutations.get(i).mutator() == Mutator.INSERT;
                if (is.contains(e) != present) {
                    return false;
                }
                if (was.contains(e) != present) {
                    size += present ? 1 : -1;
                    changed++;
                    if (diff != null && !diff.contains(e)) {
                        return false;
                    }
                }
            }
        }
        return diff != null ? diff.size() == changed : is.size() == size;
    }

    private static boolean namedLater(List<Mutation> mutations, int i, Object element) {
        for (int j = i + 1; j < mutations.size(); j++) {
            if (((Set<?>) mutations.get(j).value()).contains(element)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the row is one the transaction's diff covered and does not want: it goes with the transaction. */
    private boolean removes(String table, Row row) {
        DesiredState.TableState state = desired.tables().get(table);
        if (state == null || !scope.owns(row)) {
            return false;
        }
        String key = state.key().of(row.columns());
        return key != null
                && state.scope().map(keys -> keys.contains(key)).orElse(true)
                && !state.rows().containsKey(key);
    }
}
