package io.kovn.policy;

import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.FrozenRows;
import io.kovn.policy.model.PolicyReport;
import io.kovn.policy.model.PolicyRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Collects rows; names and ids are unique by construction, so rows of one contribution never replace another's. Kept
 * from one translation to the next by an incremental memo: a contribution (one policy's rows) that is the same object
 * as last time costs nothing, a changed one swaps its rows, and contributions not made again are removed at
 * {@link #end}.
 */
final class Accumulator {
    final TreeMap<String, DesiredPortGroup> portGroups = new TreeMap<>();
    final TreeMap<String, DesiredAddressSet> addressSets = new TreeMap<>();
    final TreeMap<String, DesiredAcl> acls = new TreeMap<>();
    final List<PolicyReport> reports = new ArrayList<>();
    /** ACLs and address sets by owner type (the policy's: all rows of one policy share it). */
    final Map<String, int[]> rowsByOwnerType = new HashMap<>();

    private final Map<Object, PolicyRows> contributions = new HashMap<>();
    private final Set<Object> made = new HashSet<>();
    /** Keys of the rows put or removed since {@link #begin}: what may differ from the previous translation. */
    final Set<String> touchedGroups = new HashSet<>();

    final Set<String> touchedSets = new HashSet<>();
    final Set<String> touchedAcls = new HashSet<>();
    /** Keys put or removed since each table was last frozen (unlike the touched keys, kept across translations). */
    private final Set<String> unfrozenGroups = new HashSet<>();

    private final Set<String> unfrozenSets = new HashSet<>();
    private final Set<String> unfrozenAcls = new HashSet<>();
    private FrozenRows<DesiredPortGroup> frozenGroups;
    private FrozenRows<DesiredAddressSet> frozenSets;
    private FrozenRows<DesiredAcl> frozenAcls;

    void begin() {
        reports.clear();
        made.clear();
        touchedGroups.clear();
        touchedSets.clear();
        touchedAcls.clear();
    }

    void add(Object key, PolicyRows rows) {
        if (!made.add(key)) {
            throw new IllegalStateException("two contributions with key " + key);
        }
        PolicyRows before = contributions.put(key, rows);
        if (before != rows) {
            replace(before == null ? PolicyRows.NONE : before, rows);
        }
    }

    /** The rows last added under {@code key}, or {@link PolicyRows#NONE}. */
    PolicyRows contribution(Object key) {
        return contributions.getOrDefault(key, PolicyRows.NONE);
    }

    /**
     * The port groups as of {@link #end}: the last frozen table with the rows put or removed since (the same table when
     * none was).
     */
    FrozenRows<DesiredPortGroup> frozenGroups() {
        frozenGroups = frozenGroups == null ? FrozenRows.of(portGroups) : frozenGroups.with(portGroups, unfrozenGroups);
        unfrozenGroups.clear();
        return frozenGroups;
    }

    FrozenRows<DesiredAddressSet> frozenSets() {
        frozenSets = frozenSets == null ? FrozenRows.of(addressSets) : frozenSets.with(addressSets, unfrozenSets);
        unfrozenSets.clear();
        return frozenSets;
    }

    FrozenRows<DesiredAcl> frozenAcls() {
        frozenAcls = frozenAcls == null ? FrozenRows.of(acls) : frozenAcls.with(acls, unfrozenAcls);
        unfrozenAcls.clear();
        return frozenAcls;
    }

    void end() {
        for (var it = contributions.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!made.contains(e.getKey())) {
                it.remove();
                replace(e.getValue(), PolicyRows.NONE);
            }
        }
    }

    /** One contribution's rows swapped for its new ones; memoized rows (the same objects) stay put. */
    private void replace(PolicyRows before, PolicyRows after) {
        count(before, -1);
        count(after, 1);
        swap(
                portGroups,
                before.portGroups(),
                after.portGroups(),
                DesiredPortGroup::name,
                touchedGroups,
                unfrozenGroups);
        swap(
                addressSets,
                before.addressSets(),
                after.addressSets(),
                DesiredAddressSet::name,
                touchedSets,
                unfrozenSets);
        swap(acls, before.acls(), after.acls(), DesiredAcl::id, touchedAcls, unfrozenAcls);
    }

    private static <T> void swap(
            Map<String, T> rows,
            List<T> before,
            List<T> after,
            Function<T, String> id,
            Set<String> touched,
            Set<String> unfrozen) {
        Function<T, String> key = row -> {
            String k = id.apply(row);
            touched.add(k);
            unfrozen.add(k);
            return k;
        };
        if (before.size() == after.size()) {
            // Usually the same rows in the same order with a few replaced: compare by position.
            // Removing every replaced row before putting its replacement also holds when a row
            // merely moved to another position.
            for (int i = 0; i < before.size(); i++) {
                if (before.get(i) != after.get(i)) {
                    rows.remove(key.apply(before.get(i)), before.get(i));
                }
            }
            for (int i = 0; i < after.size(); i++) {
                if (before.get(i) != after.get(i)) {
                    rows.put(key.apply(after.get(i)), after.get(i));
                }
            }
            return;
        }
        for (T row : before) {
            rows.remove(key.apply(row), row);
        }
        for (T row : after) {
            rows.put(key.apply(row), row);
        }
    }

    private void count(PolicyRows rows, int sign) {
        if (!rows.acls().isEmpty() || !rows.addressSets().isEmpty()) {
            Map<String, String> ids = rows.acls().isEmpty()
                    ? rows.addressSets().getFirst().externalIds()
                    : rows.acls().getFirst().externalIds();
            int[] counts = rowsByOwnerType.computeIfAbsent(ids.get("k8s.ovn.org/owner-type"), t -> new int[2]);
            counts[0] += sign * rows.acls().size();
            counts[1] += sign * rows.addressSets().size();
        }
    }

    void report(PolicyReport report) {
        reports.add(report);
    }
}
