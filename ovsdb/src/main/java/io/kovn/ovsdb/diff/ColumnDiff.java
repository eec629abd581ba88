package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.PatchedValue;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.schema.ColumnType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;

/**
 * The change of one column from its current to its desired value: nothing, a new value to write, or mutations that
 * insert and delete only the changed elements of a set or map. A mutation is chosen when it carries fewer elements than
 * rewriting the whole column would, and always for a set of row references: those are the columns that other owners
 * share (a router's {@code static_routes}, a switch's {@code ports}), and a rewrite is a read-modify-write against the
 * cache that would drop a reference inserted since the cache last heard from the server, and so the row it kept alive.
 * Pure.
 */
sealed interface ColumnDiff {

    /** The column already has the desired value. */
    record Same() implements ColumnDiff {}

    /** Write the whole value. */
    record Rewrite(Object value) implements ColumnDiff {}

    /** Apply these mutations (deletes before inserts). */
    record Mutate(List<Mutation> mutations) implements ColumnDiff {}

    ColumnDiff SAME = new Same();

    /**
     * Compares a column.
     *
     * @param column the column name
     * @param type the column's type
     * @param current the current canonical value, or {@code null} when the row does not carry it
     * @param desired the desired canonical value
     */
    static ColumnDiff of(String column, ColumnType type, Object current, Object desired) {
        return of(column, type, current, desired, null);
    }

    /**
     * Compares a column whose current value is known ({@link SameValues.Known}: equal to a naturally sorted set an
     * earlier diff proved, with a few elements toggled since), or null when nothing is known. A desired set made from
     * that proven set ({@link PatchedValue}) is compared by the two changes alone; an untoggled proven set and a sorted
     * desired set in one walk.
     */
    static ColumnDiff of(String column, ColumnType type, Object current, Object desired, SameValues.Known known) {
        if (known != null && type.isSet() && current instanceof Set<?> c && desired instanceof Set<?> d) {
            SortedSet<?> base = known.base();
            Set<?> toggled = known.toggled();
            if (c.size() == sizeAfter(base, toggled)) {
                if (desired instanceof PatchedValue p
                        && p.changeFrom(base).orElse(null) instanceof PatchedValue.Change change) {
                    // both made from the proven set: they differ where exactly one of the two changes toggled
                    Set<Object> differ = new HashSet<>(toggled);
                    for (Collection<?> part : List.of(change.added(), change.removed())) {
                        for (Object o : part) {
                            if (!differ.remove(o)) {
                                differ.add(o);
                            }
                        }
                    }
                    Set<Object> added = new HashSet<>();
                    Set<Object> removed = new HashSet<>();
                    for (Object o : differ) {
                        (d.contains(o) ? added : removed).add(o);
                    }
                    return choose(column, d, added, removed, sharedReferences(type));
                }
                if (toggled.isEmpty() && desired instanceof SortedSet<?> sorted && sorted.comparator() == null) {
                    return sorted(column, base, sorted, sharedReferences(type));
                }
            }
        }
        Object cur = current != null ? current : DesiredValues.absent(type);
        if (type.isSet() && cur instanceof Set<?> c && desired instanceof Set<?> d) {
            return sets(column, c, d, sharedReferences(type)); // its two passes also tell "same"
        }
        if (Objects.equals(cur, desired)) {
            return SAME;
        }
        if (type.isMap() && cur instanceof Map<?, ?> c && desired instanceof Map<?, ?> d) {
            return maps(column, c, d);
        }
        return new Rewrite(desired);
    }

    /** The size of {@code base} with each element of {@code toggled} flipped. */
    private static int sizeAfter(Set<?> base, Set<?> toggled) {
        int size = base.size();
        for (Object o : toggled) {
            size += base.contains(o) ? -1 : 1;
        }
        return size;
    }

    /** A set column of references that can hold more than one: never rewritten (see the type's comment). */
    private static boolean sharedReferences(ColumnType type) {
        return type.key().refTable() != null && type.max() > 1;
    }

    private static ColumnDiff sets(String column, Set<?> cur, Set<?> desired, boolean mutateOnly) {
        Set<Object> added = new HashSet<>();
        int addedHash = 0;
        for (Object e : desired) {
            if (!cur.contains(e)) {
                added.add(e);
                addedHash += e.hashCode();
            }
        }
        Set<Object> removed = removed(cur, desired, added.size(), addedHash);
        return choose(column, desired, added, removed, mutateOnly);
    }

    /** Nothing, a rewrite, or the mutations, whichever carries fewer elements. */
    private static ColumnDiff choose(
            String column, Set<?> desired, Set<Object> added, Set<Object> removed, boolean mutateOnly) {
        if (added.isEmpty() && removed.isEmpty()) {
            return SAME;
        }
        if (!mutateOnly && added.size() + removed.size() >= desired.size()) {
            return new Rewrite(desired);
        }
        List<Mutation> m = new ArrayList<>(2);
        if (!removed.isEmpty()) {
            m.add(Mutation.delete(column, Set.copyOf(removed)));
        }
        if (!added.isEmpty()) {
            m.add(Mutation.insert(column, Set.copyOf(added)));
        }
        return new Mutate(m);
    }

    /** {@link #sets} of two naturally sorted sets, in one walk. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ColumnDiff sorted(String column, SortedSet<?> cur, SortedSet<?> desired, boolean mutateOnly) {
        if (cur == desired) {
            return SAME;
        }
        Set<Object> added = new HashSet<>();
        Set<Object> removed = new HashSet<>();
        Iterator<?> a = cur.iterator();
        Iterator<?> b = desired.iterator();
        Object x = a.hasNext() ? a.next() : null;
        Object y = b.hasNext() ? b.next() : null;
        while (x != null || y != null) {
            int order = x == null ? 1 : y == null ? -1 : ((Comparable) x).compareTo(y);
            if (order < 0) {
                removed.add(x);
                x = a.hasNext() ? a.next() : null;
            } else if (order > 0) {
                added.add(y);
                y = b.hasNext() ? b.next() : null;
            } else {
                x = a.hasNext() ? a.next() : null;
                y = b.hasNext() ? b.next() : null;
            }
        }
        return choose(column, desired, added, removed, mutateOnly);
    }

    /**
     * The elements of {@code cur} not in {@code desired}, knowing how many of {@code desired}'s are not in {@code cur}
     * (and the sum of their hash codes). Their number follows from the sizes, so none is often found without a second
     * pass; one (a pod leaving a set of thousands) is the element whose hash code the sets' hash codes leave over (a
     * {@link Set}'s is the sum of its elements'; a decoded or frozen set keeps it), found by comparing ints, not by a
     * look-up in {@code desired} per element.
     */
    private static Set<Object> removed(Set<?> cur, Set<?> desired, int added, int addedHash) {
        int count = cur.size() - (desired.size() - added);
        if (count == 0) {
            return Set.of();
        }
        Set<Object> removed = new HashSet<>();
        if (count == 1) {
            int hash = cur.hashCode() - (desired.hashCode() - addedHash);
            for (Object e : cur) {
                if (e.hashCode() == hash && !desired.contains(e)) {
                    removed.add(e);
                    return removed;
                }
            }
        }
        for (Object e : cur) {
            if (!desired.contains(e)) {
                removed.add(e);
            }
        }
        return removed;
    }

    private static ColumnDiff maps(String column, Map<?, ?> cur, Map<?, ?> desired) {
        // OVSDB's map insert ignores keys already present: a changed value is a delete then an insert.
        Set<Object> removedKeys = new HashSet<>();
        cur.forEach((k, v) -> {
            if (!v.equals(desired.get(k))) {
                removedKeys.add(k);
            }
        });
        Map<Object, Object> added = new HashMap<>();
        desired.forEach((k, v) -> {
            if (!v.equals(cur.get(k))) {
                added.put(k, v);
            }
        });
        if (removedKeys.size() + added.size() >= desired.size()) {
            return new Rewrite(desired);
        }
        List<Mutation> m = new ArrayList<>(2);
        if (!removedKeys.isEmpty()) {
            m.add(Mutation.delete(column, Set.copyOf(removedKeys)));
        }
        if (!added.isEmpty()) {
            m.add(Mutation.insert(column, Map.copyOf(added)));
        }
        return new Mutate(m);
    }
}
