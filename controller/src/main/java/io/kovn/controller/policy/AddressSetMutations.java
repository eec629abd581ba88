package io.kovn.controller.policy;

import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.FrozenSortedSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Pure: the address-set writes of a scoped reconcile, taken from the translation itself. When an address set's row is
 * what this controller last wrote (its write succeeded, and no one changed the row since: the NB listener notes every
 * change it did not make), the NB row equals the previous desired set, so the change is the difference of two sorted
 * sets: one ordered walk instead of normalising and hashing thousands of addresses against the cache. Rows this cannot
 * vouch for (new, drifted, renamed, not exactly one row with the id) are left to the ownership diff. The operations are
 * those the diff would make: a mutate of the changed elements, or a rewrite when that is not smaller.
 *
 * @param operations the writes
 * @param handled ids of the address sets decided here (none of them go to the diff)
 */
record AddressSetMutations(List<Operation> operations, Set<String> handled) {

    /**
     * @param inScope ids of the address sets the reconcile diffs
     * @param before the address set last written with an id, or null
     * @param after the address set wanted now with an id, or null
     * @param drifted ids of rows someone else changed since
     * @param rowsWithId the uuids of the NB rows carrying an id
     */
    static AddressSetMutations of(
            Set<String> inScope,
            Function<String, DesiredAddressSet> before,
            Function<String, DesiredAddressSet> after,
            Set<String> drifted,
            Function<String, List<Uuid>> rowsWithId) {
        List<Operation> ops = new ArrayList<>();
        Set<String> handled = new HashSet<>();
        for (String id : new TreeSet<>(inScope)) {
            if (drifted.contains(id)) {
                continue;
            }
            DesiredAddressSet was = before.apply(id);
            DesiredAddressSet now = after.apply(id);
            if (was == null
                    || now == null
                    || !was.name().equals(now.name())
                    || !was.externalIds().equals(now.externalIds())) {
                continue;
            }
            List<Uuid> rows = rowsWithId.apply(id);
            if (rows.size() != 1) {
                continue;
            }
            handled.add(id);
            change(rows.getFirst(), was.addresses(), now.addresses()).ifPresent(ops::add);
        }
        return new AddressSetMutations(List.copyOf(ops), Set.copyOf(handled));
    }

    /** The same over maps by name (tests, and callers without an id index). */
    static AddressSetMutations of(
            Set<String> inScope,
            Map<String, DesiredAddressSet> before,
            Map<String, DesiredAddressSet> after,
            Set<String> drifted,
            Function<String, List<Uuid>> rowsWithId) {
        Map<String, DesiredAddressSet> beforeById = byId(before, inScope);
        Map<String, DesiredAddressSet> afterById = byId(after, inScope);
        return of(inScope, beforeById::get, afterById::get, drifted, rowsWithId);
    }

    private static Map<String, DesiredAddressSet> byId(Map<String, DesiredAddressSet> byName, Set<String> ids) {
        Map<String, DesiredAddressSet> out = new HashMap<>();
        for (DesiredAddressSet s : byName.values()) {
            String id = s.externalIds().get(Owner.ID);
            if (id != null && ids.contains(id)) {
                out.put(id, s);
            }
        }
        return out;
    }

    /** The write taking {@code was} to {@code now}, none when equal. */
    static Optional<Operation> change(Uuid row, SortedSet<String> was, SortedSet<String> now) {
        if (was == now) {
            return Optional.empty();
        }
        if (now instanceof FrozenSortedSet patched) {
            // the translator patched the written set itself: the change is known without a walk
            var delta = patched.deltaFrom(was);
            if (delta.isPresent()) {
                return change(
                        row,
                        now,
                        new ArrayList<>(delta.get().added()),
                        new ArrayList<>(delta.get().removed()));
            }
        }
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        Iterator<String> a = was.iterator();
        Iterator<String> b = now.iterator();
        String x = a.hasNext() ? a.next() : null;
        String y = b.hasNext() ? b.next() : null;
        while (x != null || y != null) {
            int order = x == null ? 1 : y == null ? -1 : x.compareTo(y);
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
        return change(row, now, added, removed);
    }

    private static Optional<Operation> change(
            Uuid row, SortedSet<String> now, List<String> added, List<String> removed) {
        if (added.isEmpty() && removed.isEmpty()) {
            return Optional.empty();
        }
        if (added.size() + removed.size() >= now.size()) {
            return Optional.of(Ops.update(AddressSet.TABLE_NAME, row, Map.of(AddressSet.ADDRESSES, Set.copyOf(now))));
        }
        List<Mutation> m = new ArrayList<>(2);
        if (!removed.isEmpty()) {
            m.add(Mutation.delete(AddressSet.ADDRESSES, Set.copyOf(removed)));
        }
        if (!added.isEmpty()) {
            m.add(Mutation.insert(AddressSet.ADDRESSES, Set.copyOf(added)));
        }
        return Optional.of(Ops.mutate(AddressSet.TABLE_NAME, row, m.toArray(Mutation[]::new)));
    }
}
