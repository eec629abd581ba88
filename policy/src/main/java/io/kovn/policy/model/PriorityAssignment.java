package io.kovn.policy.model;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where tier 1 places the ACLs of AdminNetworkPolicies and Admin-tier ClusterNetworkPolicies whose
 * {@code spec.priority} is 100 or more (below that kovn uses the reference's fixed formula, see {@code AnpPriorities}):
 * per precedence ({@code 2*spec.priority} for ANPs, {@code 2*spec.priority+1} for CNPs) a band of consecutive ACL
 * priorities {@code [top - size + 1, top]}; rule {@code i} of every policy of that precedence gets {@code top - i}.
 *
 * <p>It is an output of one translation and an input of the next, so that a change that does not require renumbering
 * keeps every other band where it is.
 *
 * @param bands precedence (or, from {@code AnpPriorities.assign}, spec.priority) → band
 */
public record PriorityAssignment(SortedMap<Integer, Band> bands) {
    public static final PriorityAssignment EMPTY = new PriorityAssignment(new TreeMap<>());

    public PriorityAssignment {
        bands = Collections.unmodifiableSortedMap(new TreeMap<>(bands));
    }

    /**
     * A band of ACL priorities.
     *
     * @param top the ACL priority of rule 0
     * @param size number of priorities reserved (the largest rule count among the ANPs at this priority)
     */
    public record Band(int top, int size) {
        /** The lowest ACL priority of the band. */
        public int bottom() {
            return top - size + 1;
        }
    }

    /** The band of this key (a precedence, or a spec.priority), if assigned. */
    public Optional<Band> band(int key) {
        return Optional.ofNullable(bands.get(key));
    }

    /**
     * Recovers an assignment from ACLs already in the database (after a restart), so that the first translation writes
     * nothing when nothing changed.
     *
     * @param observedTopBySpecPriority for each spec.priority ≥ 100: the ACL priority plus {@code gress-index} of any
     *     of its ANPs' ACLs (= the band's top)
     * @param sizeBySpecPriority the current band sizes
     */
    public static PriorityAssignment recover(
            Map<Integer, Integer> observedTopBySpecPriority, Map<Integer, Integer> sizeBySpecPriority) {
        TreeMap<Integer, Band> bands = new TreeMap<>();
        observedTopBySpecPriority.forEach(
                (priority, top) -> bands.put(priority, new Band(top, sizeBySpecPriority.getOrDefault(priority, 1))));
        return new PriorityAssignment(bands);
    }
}
