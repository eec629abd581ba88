package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Mutator;
import io.kovn.ovsdb.ops.Operation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Plans of disjoint owners joined into one transaction ({@link Plan#concat}). Pure.
 *
 * <p>Every plan names its inserts {@code row0}, {@code row1}, ...: plan {@code i}'s names become {@code p<i>_row0}, ...
 * in its inserts and wherever its operations refer to them. Mutates of one row by several plans (the parent that each
 * plan attaches its children to, e.g. a switch's {@code ports}) are merged into one, with every element deleted before
 * any inserted, as one plan's own parent mutate is.
 */
final class PlanConcat {
    private PlanConcat() {}

    /** A row a mutate selects. */
    private record Target(String table, List<Condition> where) {}

    static Plan of(List<Plan> plans) {
        if (plans.size() == 1) {
            return plans.getFirst();
        }
        List<Operation> inserts = new ArrayList<>();
        List<Operation> updates = new ArrayList<>();
        Map<Target, List<Mutation>> mutates = new LinkedHashMap<>();
        List<Operation> unmerged = new ArrayList<>();
        List<Operation> deletes = new ArrayList<>();
        for (int i = 0; i < plans.size(); i++) {
            String prefix = "p" + i + "_";
            UnaryOperator<Object> rename = value -> renamed(value, prefix);
            for (Operation op : plans.get(i).operations()) {
                switch (op) {
                    case Operation.Insert in ->
                        inserts.add(new Operation.Insert(
                                in.table(),
                                renamedRow(in.row(), rename),
                                in.uuidName() == null ? null : prefix + in.uuidName()));
                    case Operation.Update up ->
                        updates.add(new Operation.Update(up.table(), up.where(), renamedRow(up.row(), rename)));
                    case Operation.Mutate m
                    when mergeable(m) ->
                        merge(
                                mutates.computeIfAbsent(new Target(m.table(), m.where()), t -> new ArrayList<>()),
                                m,
                                rename);
                    case Operation.Mutate m ->
                        unmerged.add(new Operation.Mutate(
                                m.table(),
                                m.where(),
                                m.mutations().stream()
                                        .map(x -> new Mutation(x.column(), x.mutator(), rename.apply(x.value())))
                                        .toList()));
                    case Operation.Delete d -> deletes.add(d);
                    default -> throw new IllegalArgumentException("a plan holds no " + op.op());
                }
            }
        }
        List<Operation> ops = new ArrayList<>(inserts);
        ops.addAll(updates);
        mutates.forEach((t, m) -> ops.add(new Operation.Mutate(t.table(), t.where(), ordered(t, m))));
        ops.addAll(unmerged);
        ops.addAll(deletes);
        return Plan.of(ops);
    }

    /** Only set and map element inserts and deletes commute across disjoint owners; arithmetic does not. */
    private static boolean mergeable(Operation.Mutate m) {
        return m.mutations().stream()
                .allMatch(x -> (x.mutator() == Mutator.INSERT || x.mutator() == Mutator.DELETE)
                        && (x.value() instanceof Set<?> || x.value() instanceof Map<?, ?>));
    }

    /** Adds a mutate's mutations to those of its row: one per column, mutator and kind (set or map). */
    private static void merge(List<Mutation> into, Operation.Mutate m, UnaryOperator<Object> rename) {
        for (Mutation x : m.mutations()) {
            Object value = rename.apply(x.value());
            int at = indexOf(into, x, value);
            if (at < 0) {
                into.add(new Mutation(x.column(), x.mutator(), value));
            } else {
                into.set(
                        at,
                        new Mutation(x.column(), x.mutator(), union(into.get(at).value(), value)));
            }
        }
    }

    private static int indexOf(List<Mutation> mutations, Mutation x, Object value) {
        for (int i = 0; i < mutations.size(); i++) {
            Mutation y = mutations.get(i);
            if (y.column().equals(x.column())
                    && y.mutator() == x.mutator()
                    && (y.value() instanceof Set<?>) == (value instanceof Set<?>)) {
                return i;
            }
        }
        return -1;
    }

    private static Object union(Object a, Object b) {
        if (a instanceof Set<?> x && b instanceof Set<?> y) {
            Set<Object> out = new HashSet<>(x);
            out.addAll(y);
            return Set.copyOf(out);
        }
        Map<Object, Object> out = new HashMap<>((Map<?, ?>) a);
        ((Map<?, ?>) b).forEach((k, v) -> {
            if (out.containsKey(k) && !out.get(k).equals(v)) {
                throw new IllegalArgumentException("plans are not disjoint: two values for map key " + k);
            }
            out.put(k, v);
        });
        return Map.copyOf(out);
    }

    /**
     * Deletes before inserts, as {@link ParentMutations} orders them; refused when one plan inserts what another
     * deletes (the plans' owners are not disjoint, and the order would decide).
     */
    private static List<Mutation> ordered(Target t, List<Mutation> mutations) {
        List<Mutation> out = new ArrayList<>(mutations.size());
        mutations.stream().filter(x -> x.mutator() == Mutator.DELETE).forEach(out::add);
        mutations.stream().filter(x -> x.mutator() == Mutator.INSERT).forEach(out::add);
        for (Mutation ins : mutations) {
            for (Mutation del : mutations) {
                if (ins.mutator() == Mutator.INSERT
                        && del.mutator() == Mutator.DELETE
                        && ins.column().equals(del.column())
                        && overlap(ins.value(), del.value())) {
                    throw new IllegalArgumentException("plans are not disjoint: " + t.table() + " " + t.where()
                            + " column " + ins.column() + " has elements both inserted and deleted");
                }
            }
        }
        return out;
    }

    /** Whether an insert's elements (or map keys) meet a delete's (elements, keys, or pairs' keys). */
    private static boolean overlap(Object inserted, Object deleted) {
        Collection<?> in = inserted instanceof Map<?, ?> m ? m.keySet() : (Collection<?>) inserted;
        Collection<?> out = deleted instanceof Map<?, ?> m ? m.keySet() : (Collection<?>) deleted;
        for (Object e : in) {
            if (out.contains(e)) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Object> renamedRow(Map<String, Object> row, UnaryOperator<Object> rename) {
        Map<String, Object> out = HashMap.newHashMap(row.size());
        row.forEach((column, value) -> out.put(column, rename.apply(value)));
        return out;
    }

    /** A canonical value with its named uuids prefixed; values without one are returned as they are. */
    private static Object renamed(Object value, String prefix) {
        boolean[] named = {false};
        DesiredValues.namedUuids(value, n -> named[0] = true);
        if (!named[0]) {
            return value;
        }
        return switch (value) {
            case NamedUuid n -> new NamedUuid(prefix + n.name());
            case Set<?> s -> {
                Set<Object> out = HashSet.newHashSet(s.size());
                s.forEach(e -> out.add(e instanceof NamedUuid n ? new NamedUuid(prefix + n.name()) : e));
                yield Set.copyOf(out);
            }
            case Map<?, ?> m -> {
                Map<Object, Object> out = HashMap.newHashMap(m.size());
                m.forEach((k, v) -> out.put(
                        k instanceof NamedUuid n ? new NamedUuid(prefix + n.name()) : k,
                        v instanceof NamedUuid n ? new NamedUuid(prefix + n.name()) : v));
                yield Map.copyOf(out);
            }
            default -> value;
        };
    }
}
