package io.kovn.controller.policy;

import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.policy.model.ChangedRows;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyRows;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Pure: a set of policy rows by table and {@code k8s.ovn.org/id}, the rows one reconcile diffs against the NB cache.
 * {@link #between} finds the rows that differ between two translations (after a pod relabel, the handful of address
 * sets and port groups that select the pod, so the diff's cost follows the change, not the zone); {@link #closed} makes
 * a scope consistent for the diff (a port group brings its ACLs, an ACL its port group).
 *
 * @param ids table name to the ids of the rows to diff
 */
record RowScope(Map<String, Set<String>> ids) {
    static final RowScope NONE = new RowScope(Map.of());

    RowScope {
        Map<String, Set<String>> frozen = new HashMap<>();
        ids.forEach((t, s) -> {
            if (!s.isEmpty()) {
                frozen.put(t, Set.copyOf(s));
            }
        });
        ids = Map.copyOf(frozen);
    }

    /** Whether nothing needs a diff. */
    boolean isEmpty() {
        return ids.isEmpty();
    }

    /** The ids of one table. */
    Set<String> of(String table) {
        return ids.getOrDefault(table, Set.of());
    }

    /** This scope and {@code other}. */
    RowScope plus(RowScope other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        Map<String, Set<String>> merged = new HashMap<>();
        ids.forEach((t, s) -> merged.put(t, new HashSet<>(s)));
        other.ids.forEach(
                (t, s) -> merged.computeIfAbsent(t, x -> new HashSet<>()).addAll(s));
        return new RowScope(merged);
    }

    /** These rows in one table. */
    static RowScope of(String table, Collection<String> ids) {
        return new RowScope(Map.of(table, Set.copyOf(ids)));
    }

    /**
     * This scope made consistent for the diff: an ACL in scope brings its port group (a new ACL must be referenced by
     * it in the same transaction), and a port group in scope brings its ACLs (its {@code acls} column refers to them by
     * key).
     */
    RowScope closed(RowsById rows) {
        Set<String> acls = new HashSet<>(ids.getOrDefault(Acl.TABLE_NAME, Set.of()));
        Set<String> groups = new HashSet<>(ids.getOrDefault(PortGroup.TABLE_NAME, Set.of()));
        for (String id : Set.copyOf(acls)) {
            DesiredAcl acl = rows.acl(id);
            if (acl != null) {
                DesiredPortGroup g = rows.portGroupNamed(acl.portGroup());
                if (g != null && g.externalIds().get(Owner.ID) != null) {
                    groups.add(g.externalIds().get(Owner.ID));
                }
            }
        }
        // by id, not by walking the zone's 1,100 port groups (a relabel brings one or two)
        for (String id : groups) {
            DesiredPortGroup g = rows.portGroup(id);
            if (g != null) {
                acls.addAll(g.acls());
            }
        }
        return new RowScope(Map.of(
                AddressSet.TABLE_NAME,
                ids.getOrDefault(AddressSet.TABLE_NAME, Set.of()),
                Acl.TABLE_NAME,
                Set.copyOf(acls),
                PortGroup.TABLE_NAME,
                Set.copyOf(groups)));
    }

    /** How many rows are in scope. */
    int size() {
        return ids.values().stream().mapToInt(Set::size).sum();
    }

    /** The rows that differ between two translations (each with its {@link io.kovn.policy.StatefulPods} rows). */
    static RowScope between(
            DesiredPolicyState before, PolicyRows extraBefore, DesiredPolicyState after, PolicyRows extraAfter) {
        return between(before, extraBefore, after, extraAfter, Optional.empty());
    }

    /**
     * The same, comparing only the rows {@code changed} names when the translator knows them (its translation right
     * after {@code before}): O(change) instead of a walk over every row.
     */
    static RowScope between(
            DesiredPolicyState before,
            PolicyRows extraBefore,
            DesiredPolicyState after,
            PolicyRows extraAfter,
            Optional<ChangedRows> changed) {
        Set<String> sets = new HashSet<>();
        Set<String> acls = new HashSet<>();
        Set<String> groups = new HashSet<>();
        Function<DesiredAddressSet, String> setId = x -> x.externalIds().get(Owner.ID);
        Function<DesiredPortGroup, String> groupId = x -> x.externalIds().get(Owner.ID);
        if (changed.isPresent()) {
            changed(changed.get().addressSets(), before.addressSets(), after.addressSets(), setId, sets);
            changed(changed.get().acls(), before.acls(), after.acls(), DesiredAcl::id, acls);
            changed(changed.get().portGroups(), before.portGroups(), after.portGroups(), groupId, groups);
        } else {
            changed(before.addressSets(), after.addressSets(), setId, sets);
            changed(before.acls(), after.acls(), DesiredAcl::id, acls);
            changed(before.portGroups(), after.portGroups(), groupId, groups);
        }
        if (extraBefore != extraAfter) { // the translator hands out the same stateful rows while they hold
            changed(sorted(extraBefore.addressSets(), setId), sorted(extraAfter.addressSets(), setId), setId, sets);
            changed(
                    sorted(extraBefore.acls(), DesiredAcl::id),
                    sorted(extraAfter.acls(), DesiredAcl::id),
                    DesiredAcl::id,
                    acls);
            changed(
                    sorted(extraBefore.portGroups(), groupId),
                    sorted(extraAfter.portGroups(), groupId),
                    groupId,
                    groups);
        }
        groups.remove(null);
        sets.remove(null);
        return new RowScope(Map.of(AddressSet.TABLE_NAME, sets, Acl.TABLE_NAME, acls, PortGroup.TABLE_NAME, groups));
    }

    /**
     * The port groups of a translation whose members name one of these switch ports: their rows refer to the ports by
     * uuid, so a port made again (a new uuid under the same name) changes them although the translation does not.
     */
    static RowScope portGroupsWith(Set<String> ports, DesiredPolicyState state, PolicyRows extra) {
        if (ports.isEmpty()) {
            return NONE;
        }
        Set<String> groups = new HashSet<>();
        for (List<DesiredPortGroup> some :
                List.of(List.copyOf(state.portGroups().values()), extra.portGroups())) {
            for (DesiredPortGroup g : some) {
                String id = g.externalIds().get(Owner.ID);
                if (id != null && g.ports().stream().anyMatch(ports::contains)) {
                    groups.add(id);
                }
            }
        }
        return of(PortGroup.TABLE_NAME, groups);
    }

    /** A few rows (the stateful-pod rows) by id. */
    private static <T> SortedMap<String, T> sorted(List<T> rows, Function<T, String> id) {
        TreeMap<String, T> out = new TreeMap<>();
        rows.forEach(x -> out.put(id.apply(x), x));
        return out;
    }

    /** The rows of the given keys that differ between two maps. */
    private static <T> void changed(
            Set<String> keys, Map<String, T> before, Map<String, T> after, Function<T, String> id, Set<String> out) {
        for (String key : keys) {
            T x = before.get(key);
            T y = after.get(key);
            if (x != y && !Objects.equals(x, y)) {
                if (x != null) {
                    out.add(id.apply(x));
                }
                if (y != null) {
                    out.add(id.apply(y));
                }
            }
        }
    }

    /** Walks two maps sorted alike in step: identical values (memoized rows) cost one comparison. */
    private static <T> void changed(
            SortedMap<String, T> before, SortedMap<String, T> after, Function<T, String> id, Set<String> out) {
        Iterator<Map.Entry<String, T>> b = before.entrySet().iterator();
        Iterator<Map.Entry<String, T>> a = after.entrySet().iterator();
        Map.Entry<String, T> x = b.hasNext() ? b.next() : null;
        Map.Entry<String, T> y = a.hasNext() ? a.next() : null;
        while (x != null || y != null) {
            int order = x == null ? 1 : y == null ? -1 : x.getKey().compareTo(y.getKey());
            if (order < 0) {
                out.add(id.apply(x.getValue()));
                x = b.hasNext() ? b.next() : null;
            } else if (order > 0) {
                out.add(id.apply(y.getValue()));
                y = a.hasNext() ? a.next() : null;
            } else {
                if (x.getValue() != y.getValue() && !Objects.equals(x.getValue(), y.getValue())) {
                    out.add(id.apply(x.getValue()));
                    out.add(id.apply(y.getValue()));
                }
                x = b.hasNext() ? b.next() : null;
                y = a.hasNext() ? a.next() : null;
            }
        }
    }
}
