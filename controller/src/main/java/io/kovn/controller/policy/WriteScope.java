package io.kovn.controller.policy;

import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.policy.model.ChangedRows;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyRows;
import java.util.ArrayList;
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
 * Pure: which policy rows a reconcile must diff, given the translation it wrote last and the one it has now: the rows
 * (by {@code k8s.ovn.org/id}, per table) that were added, removed or changed. After a pod relabel that is the handful
 * of address sets and port groups that select the pod, so the diff's cost follows the change, not the zone. A port
 * group whose member switch ports came, went or changed uuid (a port made again) is in scope although its row by name
 * is unchanged, and a port group in scope brings its ACLs (its {@code acls} column refers to them).
 *
 * @param all diff every policy row (first reconcile, after drift, a refused or stale write)
 * @param ids table name to the ids of the rows to diff, when not {@code all}
 */
record WriteScope(boolean all, Map<String, Set<String>> ids) {
    static final WriteScope ALL = new WriteScope(true, Map.of());

    /** Whether nothing needs a diff. */
    boolean isEmpty() {
        return !all && ids.values().stream().allMatch(Set::isEmpty);
    }

    /** This scope plus some more rows by id per table (rows someone else changed). */
    WriteScope with(Map<String, Set<String>> more) {
        if (all || more.isEmpty()) {
            return this;
        }
        Map<String, Set<String>> merged = new HashMap<>();
        ids.forEach((t, s) -> merged.put(t, new HashSet<>(s)));
        more.forEach((t, s) -> merged.computeIfAbsent(t, x -> new HashSet<>()).addAll(s));
        Map<String, Set<String>> frozen = new HashMap<>();
        merged.forEach((t, s) -> frozen.put(t, Set.copyOf(s)));
        return new WriteScope(false, Map.copyOf(frozen));
    }

    /**
     * This scope made consistent for the diff: an ACL in scope brings its port group (a new ACL must be referenced by
     * it in the same transaction), and a port group in scope brings its ACLs (its {@code acls} column refers to them by
     * key).
     */
    WriteScope closed(DesiredPolicyState state, PolicyRows extra) {
        if (all) {
            return this;
        }
        Set<String> acls = new HashSet<>(ids.getOrDefault(Acl.TABLE_NAME, Set.of()));
        Set<String> groups = new HashSet<>(ids.getOrDefault(PortGroup.TABLE_NAME, Set.of()));
        Map<String, DesiredPortGroup> byName = new HashMap<>();
        extra.portGroups().forEach(g -> byName.put(g.name(), g));
        Map<String, DesiredAcl> extraAcls = new HashMap<>();
        extra.acls().forEach(a -> extraAcls.put(a.id(), a));
        for (String id : Set.copyOf(acls)) {
            DesiredAcl acl = state.acls().containsKey(id) ? state.acls().get(id) : extraAcls.get(id);
            if (acl != null) {
                DesiredPortGroup g = state.portGroups().containsKey(acl.portGroup())
                        ? state.portGroups().get(acl.portGroup())
                        : byName.get(acl.portGroup());
                if (g != null && g.externalIds().get(Owner.ID) != null) {
                    groups.add(g.externalIds().get(Owner.ID));
                }
            }
        }
        // by id, not by walking the zone's 1,100 port groups (a relabel brings one or two)
        RowsById rows = new RowsById(state, extra);
        for (String id : groups) {
            DesiredPortGroup g = rows.portGroup(id);
            if (g != null) {
                acls.addAll(g.acls());
            }
        }
        return new WriteScope(
                false,
                Map.of(
                        AddressSet.TABLE_NAME,
                        ids.getOrDefault(AddressSet.TABLE_NAME, Set.of()),
                        Acl.TABLE_NAME,
                        Set.copyOf(acls),
                        PortGroup.TABLE_NAME,
                        Set.copyOf(groups)));
    }

    /** This scope without some rows of one table (decided elsewhere). */
    WriteScope without(String table, Set<String> decided) {
        if (all || decided.isEmpty()) {
            return this;
        }
        Map<String, Set<String>> out = new HashMap<>(ids);
        Set<String> rest = new HashSet<>(ids.getOrDefault(table, Set.of()));
        rest.removeAll(decided);
        out.put(table, Set.copyOf(rest));
        return new WriteScope(false, Map.copyOf(out));
    }

    /** How many rows are in scope (all: -1). */
    int size() {
        return all ? -1 : ids.values().stream().mapToInt(Set::size).sum();
    }

    /**
     * The rows that differ between two translations (each with its {@link io.kovn.policy.StatefulPods} rows), or whose
     * port group holds a switch port that came, went or changed uuid.
     */
    static WriteScope between(
            DesiredPolicyState before,
            PolicyRows extraBefore,
            Map<String, Uuid> portsBefore,
            DesiredPolicyState after,
            PolicyRows extraAfter,
            Map<String, Uuid> portsAfter) {
        return between(before, extraBefore, portsBefore, after, extraAfter, portsAfter, Optional.empty());
    }

    /**
     * The same, comparing only the rows {@code changed} names when the translator knows them (its translation right
     * after {@code before}): O(change) instead of a walk over every row.
     */
    static WriteScope between(
            DesiredPolicyState before,
            PolicyRows extraBefore,
            Map<String, Uuid> portsBefore,
            DesiredPolicyState after,
            PolicyRows extraAfter,
            Map<String, Uuid> portsAfter,
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
        if (portsBefore != portsAfter && !portsBefore.equals(portsAfter)) {
            List<DesiredPortGroup> groupsAfter =
                    new ArrayList<>(after.portGroups().values());
            groupsAfter.addAll(extraAfter.portGroups());
            Set<String> moved = new HashSet<>();
            portsAfter.forEach((name, uuid) -> {
                if (!uuid.equals(portsBefore.get(name))) {
                    moved.add(name);
                }
            });
            portsBefore.keySet().forEach(name -> {
                if (!portsAfter.containsKey(name)) {
                    moved.add(name);
                }
            });
            for (DesiredPortGroup g : groupsAfter) {
                if (moved.stream().anyMatch(g.ports()::contains)) {
                    groups.add(g.externalIds().get(Owner.ID));
                }
            }
        }
        groups.remove(null);
        sets.remove(null);
        return new WriteScope(
                false,
                Map.of(
                        AddressSet.TABLE_NAME,
                        Set.copyOf(sets),
                        Acl.TABLE_NAME,
                        Set.copyOf(acls),
                        PortGroup.TABLE_NAME,
                        Set.copyOf(groups)));
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
