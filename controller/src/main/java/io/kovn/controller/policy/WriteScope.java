package io.kovn.controller.policy;

import io.kovn.ovsdb.data.Uuid;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyRows;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;

/**
 * Pure: which policy objects' rows a reconcile must diff, given the translation it wrote last and
 * the one it has now. Policies whose rows are equal (most of them, after a pod relabel) are left
 * out of the diff, so its cost follows the change, not the zone. A port group whose member switch
 * ports changed uuid (a port deleted and made again) counts as changed although its rows by name
 * did not.
 *
 * @param all diff everything (first reconcile, after drift, a refused or stale write)
 * @param owners the policy objects whose rows changed, when not {@code all}
 */
record WriteScope(boolean all, Set<PolicyOwner> owners) {
    static final WriteScope ALL = new WriteScope(true, Set.of());

    /** Whether nothing needs a diff. */
    boolean isEmpty() {
        return !all && owners.isEmpty();
    }

    /**
     * The owners whose rows differ between two translations (each with its {@link io.kovn.policy.StatefulPods}
     * rows), or whose port groups hold a switch port that came, went or changed uuid.
     */
    static WriteScope between(DesiredPolicyState before, PolicyRows extraBefore, Map<String, Uuid> portsBefore,
                              DesiredPolicyState after, PolicyRows extraAfter, Map<String, Uuid> portsAfter) {
        Set<PolicyOwner> owners = new HashSet<>();
        changed(before.addressSets(), after.addressSets(), s -> s.externalIds(), owners);
        changed(before.acls(), after.acls(), a -> a.externalIds(), owners);
        changed(before.portGroups(), after.portGroups(), g -> g.externalIds(), owners);
        if (!extraBefore.equals(extraAfter)) {
            extraBefore.portGroups().forEach(g -> PolicyOwner.of(g.externalIds()).ifPresent(owners::add));
            extraAfter.portGroups().forEach(g -> PolicyOwner.of(g.externalIds()).ifPresent(owners::add));
            extraBefore.acls().forEach(a -> PolicyOwner.of(a.externalIds()).ifPresent(owners::add));
            extraAfter.acls().forEach(a -> PolicyOwner.of(a.externalIds()).ifPresent(owners::add));
        }
        if (!portsBefore.equals(portsAfter)) {
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
            for (DesiredPortGroup g : after.portGroups().values()) {
                holdsAny(g, moved, owners);
            }
            extraAfter.portGroups().forEach(g -> holdsAny(g, moved, owners));
        }
        return new WriteScope(false, Set.copyOf(owners));
    }

    private static void holdsAny(DesiredPortGroup g, Set<String> ports, Set<PolicyOwner> owners) {
        for (String p : ports) {
            if (g.ports().contains(p)) {
                PolicyOwner.of(g.externalIds()).ifPresent(owners::add);
                return;
            }
        }
    }

    /** Walks two maps sorted alike in step: identical values (memoized rows) cost one comparison. */
    private static <T> void changed(SortedMap<String, T> before, SortedMap<String, T> after,
                                    Function<T, Map<String, String>> ids, Set<PolicyOwner> owners) {
        Iterator<Map.Entry<String, T>> b = before.entrySet().iterator();
        Iterator<Map.Entry<String, T>> a = after.entrySet().iterator();
        Map.Entry<String, T> x = b.hasNext() ? b.next() : null;
        Map.Entry<String, T> y = a.hasNext() ? a.next() : null;
        while (x != null || y != null) {
            int order = x == null ? 1 : y == null ? -1 : x.getKey().compareTo(y.getKey());
            if (order < 0) {
                PolicyOwner.of(ids.apply(x.getValue())).ifPresent(owners::add);
                x = b.hasNext() ? b.next() : null;
            } else if (order > 0) {
                PolicyOwner.of(ids.apply(y.getValue())).ifPresent(owners::add);
                y = a.hasNext() ? a.next() : null;
            } else {
                if (x.getValue() != y.getValue() && !Objects.equals(x.getValue(), y.getValue())) {
                    PolicyOwner.of(ids.apply(x.getValue())).ifPresent(owners::add);
                    PolicyOwner.of(ids.apply(y.getValue())).ifPresent(owners::add);
                }
                x = b.hasNext() ? b.next() : null;
                y = a.hasNext() ? a.next() : null;
            }
        }
    }
}
