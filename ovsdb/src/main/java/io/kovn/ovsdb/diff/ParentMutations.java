package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reference changes in parent rows the reconcile does not own: attaching new children and detaching stale ones, merged
 * into one mutate per parent row (deletes before inserts).
 */
final class ParentMutations {
    private record Parent(String table, Uuid uuid) {}

    private static final class Changes {
        final Map<String, Set<Object>> deleteElements = new LinkedHashMap<>();
        final Map<String, Map<Object, Object>> deletePairs = new LinkedHashMap<>();
        final Map<String, Set<Object>> insertElements = new LinkedHashMap<>();
    }

    private final Map<Parent, Changes> parents = new LinkedHashMap<>();

    /** Adds {@code child} (a uuid or named uuid) to a set column of a parent. */
    void attach(String table, Uuid parent, String column, Object child) {
        changes(table, parent)
                .insertElements
                .computeIfAbsent(column, c -> new HashSet<>())
                .add(child);
    }

    /** Removes an element (a referenced uuid, or a map key) from a set or map column of a parent. */
    void detachElement(String table, Uuid parent, String column, Object element) {
        changes(table, parent)
                .deleteElements
                .computeIfAbsent(column, c -> new HashSet<>())
                .add(element);
    }

    /** Removes one pair of a map column of a parent (a map whose values reference the child). */
    void detachPair(String table, Uuid parent, String column, Object key, Object value) {
        changes(table, parent)
                .deletePairs
                .computeIfAbsent(column, c -> new HashMap<>())
                .put(key, value);
    }

    private Changes changes(String table, Uuid parent) {
        return parents.computeIfAbsent(new Parent(table, parent), p -> new Changes());
    }

    /** One mutate per parent row. */
    List<Operation> operations() {
        List<Operation> ops = new ArrayList<>(parents.size());
        parents.forEach((p, c) -> {
            List<Mutation> m = new ArrayList<>();
            c.deleteElements.forEach((col, els) -> m.add(Mutation.delete(col, Set.copyOf(els))));
            c.deletePairs.forEach((col, pairs) -> m.add(Mutation.delete(col, Map.copyOf(pairs))));
            c.insertElements.forEach((col, els) -> m.add(Mutation.insert(col, Set.copyOf(els))));
            ops.add(Ops.mutate(p.table(), p.uuid(), m.toArray(Mutation[]::new)));
        });
        return ops;
    }
}
