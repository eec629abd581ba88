package io.kovn.policy.admin;

import io.kovn.policy.model.PriorityAssignment;
import io.kovn.policy.model.PriorityAssignment.Band;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Tier-1 ACL priorities for AdminNetworkPolicies and Admin-tier ClusterNetworkPolicies over the API's whole range
 * 0..1000 ({@link #assignTier1}: at equal spec.priority the ANPs first), and tier 3's for the BANP and Baseline-tier
 * CNPs.
 *
 * <p>Tier 1 is evaluated on its own, so all of OVN's ACL priorities belong to ANPs. kovn splits them:
 *
 * <ul>
 *   <li><b>spec.priority 0..99</b>: the reference's formula {@code 30000 - 100*priority - ruleIndex} (ACL priorities
 *       20001..30000), so tools and runbooks written for the reference keep working.
 *   <li><b>spec.priority 100..1000</b>: packed into {@value #PACKED_TOP}..{@value #PACKED_BOTTOM}, below every formula
 *       band (lower precedence, as the API requires). Each distinct spec.priority gets a band of consecutive ACL
 *       priorities as large as its largest ANP's rule count; rule {@code i} gets {@code top - i}. ANPs sharing a
 *       spec.priority share the band, as in the reference.
 * </ul>
 *
 * <p>Stability: the previous assignment is an input. A band keeps its place when it still fits between its kept
 * neighbours in the required order; new or moved bands are placed evenly in the gap where they belong, leaving room on
 * both sides for later inserts. Only when a gap is too small is the packed region laid out again. What cannot fit at
 * all is returned as {@code unplaced} and must be reported, never silently dropped.
 */
public final class AnpPriorities {
    /** spec.priority values up to this use the reference's formula. */
    public static final int FORMULA_MAX_PRIORITY = 99;
    /** The formula's base. */
    public static final int FORMULA_BASE = 30000;
    /** Rules per band in the formula region (the API's maxItems). */
    public static final int FORMULA_BAND = 100;
    /** Highest ACL priority of the packed region. */
    public static final int PACKED_TOP = 20000;
    /** Lowest ACL priority of the packed region. */
    public static final int PACKED_BOTTOM = 1;
    /** BANP rule {@code i} gets {@code 1750 - i} in tier 3 (reference). */
    public static final int BANP_TOP = 1750;
    /** Rules per Baseline-tier ClusterNetworkPolicy (the v1alpha2 API's maxItems). */
    public static final int CNP_BAND = 25;
    /**
     * Tier 3 above the BANP: rule {@code i} of a Baseline-tier CNP of spec.priority {@code p} gets
     * {@code BASELINE_CNP_BOTTOM + 25*(1000-p) + 24 - i} (1751..26775), before the BANP as its precedence says, stable
     * without any assignment state.
     */
    public static final int BASELINE_CNP_BOTTOM = BANP_TOP + 1;

    /** The tier-3 ACL priority of rule {@code ruleIndex} (0..24) of a Baseline-tier CNP of {@code specPriority}. */
    public static int baselineCnpPriority(int specPriority, int ruleIndex) {
        return BASELINE_CNP_BOTTOM + CNP_BAND * (1000 - specPriority) + CNP_BAND - 1 - ruleIndex;
    }

    private AnpPriorities() {}

    /**
     * The outcome of one assignment.
     *
     * @param topBySpecPriority ACL priority of rule 0 for every placed spec.priority
     * @param assignment the packed bands, to feed into the next call
     * @param unplaced spec.priority values that did not fit (their ANPs must not be programmed)
     */
    public record Result(
            SortedMap<Integer, Integer> topBySpecPriority, PriorityAssignment assignment, Set<Integer> unplaced) {
        /** The ACL priority of rule {@code ruleIndex} of an ANP at {@code specPriority}. */
        public int aclPriority(int specPriority, int ruleIndex) {
            return topBySpecPriority.get(specPriority) - ruleIndex;
        }
    }

    /**
     * Assigns bands.
     *
     * @param sizeBySpecPriority for each spec.priority in use, the largest rule count (max of ingress and egress
     *     lengths) among its ANPs; 0 counts as 1
     * @param previous the previous assignment (may be {@link PriorityAssignment#EMPTY})
     */
    public static Result assign(SortedMap<Integer, Integer> sizeBySpecPriority, PriorityAssignment previous) {
        return assign(sizeBySpecPriority, previous, false);
    }

    /**
     * Assigns tier 1's bands to ANPs and Admin-tier ClusterNetworkPolicies together, keyed by
     * {@link AdminPolicy#precedence()}: {@code 2*priority} for the ANPs of a spec.priority, {@code 2*priority+1} for
     * the CNPs of it. Below spec.priority 100 the ANPs keep the reference's formula band and the CNPs of the same
     * spec.priority take the priorities right under the ANPs' rules within that band of 100 (unplaced when both do not
     * fit); from 100 on every key is a band of its own in the packed region, in key order.
     *
     * @param sizeByPrecedence for each precedence in use, the largest rule count among its policies; 0 counts as 1
     * @param previous the previous assignment (bands keyed by precedence)
     */
    public static Result assignTier1(SortedMap<Integer, Integer> sizeByPrecedence, PriorityAssignment previous) {
        return assign(sizeByPrecedence, previous, true);
    }

    private static Result assign(
            SortedMap<Integer, Integer> sizeByKey, PriorityAssignment previous, boolean precedenceKeys) {
        TreeMap<Integer, Integer> tops = new TreeMap<>();
        TreeSet<Integer> unplaced = new TreeSet<>();
        List<Integer> packed = new ArrayList<>();
        Map<Integer, Integer> sizes = new HashMap<>();
        for (Map.Entry<Integer, Integer> e : sizeByKey.entrySet()) {
            int key = e.getKey();
            int priority = precedenceKeys ? key / 2 : key;
            int size = Math.max(1, e.getValue());
            sizes.put(key, size);
            if (priority <= FORMULA_MAX_PRIORITY) {
                // a CNP key (odd) starts below the ANPs of its spec.priority, inside the same band of 100
                int used = precedenceKeys && key % 2 == 1 && !unplaced.contains(key - 1)
                        ? sizes.getOrDefault(key - 1, 0)
                        : 0;
                if (used + size > FORMULA_BAND) {
                    unplaced.add(key);
                } else {
                    tops.put(key, FORMULA_BASE - 100 * priority - used);
                }
            } else {
                packed.add(key);
            }
        }
        Map<Integer, Integer> packedTops = pack(packed, sizes, previous, unplaced);
        tops.putAll(packedTops);
        TreeMap<Integer, Band> bands = new TreeMap<>();
        packedTops.forEach((key, top) -> bands.put(key, new Band(top, sizes.get(key))));
        return new Result(tops, new PriorityAssignment(bands), unplaced);
    }

    private static Map<Integer, Integer> pack(
            List<Integer> order, Map<Integer, Integer> sizes, PriorityAssignment previous, Set<Integer> unplaced) {
        Map<Integer, Integer> kept = keptAnchors(order, sizes, previous);
        Map<Integer, Integer> placed = fillGaps(order, sizes, kept);
        if (placed != null) {
            return placed;
        }
        placed = fillGaps(order, sizes, Map.of());
        if (placed != null) {
            return placed;
        }
        return tight(order, sizes, unplaced);
    }

    /**
     * Previous bands that are still in order and inside the region, chosen greedily from the highest precedence down.
     */
    private static Map<Integer, Integer> keptAnchors(
            List<Integer> order, Map<Integer, Integer> sizes, PriorityAssignment previous) {
        Map<Integer, Integer> kept = new HashMap<>();
        int limit = PACKED_TOP; // highest ACL priority still free below the last kept band
        for (int priority : order) {
            var band = previous.band(priority);
            if (band.isEmpty()) {
                continue;
            }
            int top = band.get().top();
            if (top <= limit && top - sizes.get(priority) + 1 >= PACKED_BOTTOM) {
                kept.put(priority, top);
                limit = top - sizes.get(priority);
            }
        }
        return kept;
    }

    /** Places the bands not in {@code anchors} evenly into the gaps between anchors; null if a gap is too small. */
    private static Map<Integer, Integer> fillGaps(
            List<Integer> order, Map<Integer, Integer> sizes, Map<Integer, Integer> anchors) {
        Map<Integer, Integer> result = new HashMap<>(anchors);
        int upper = PACKED_TOP;
        List<Integer> pending = new ArrayList<>();
        for (int priority : order) {
            Integer anchorTop = anchors.get(priority);
            if (anchorTop == null) {
                pending.add(priority);
                continue;
            }
            if (!spread(pending, sizes, upper, anchorTop + 1, result)) {
                return null;
            }
            pending.clear();
            upper = anchorTop - sizes.get(priority);
        }
        if (!spread(pending, sizes, upper, PACKED_BOTTOM, result)) {
            return null;
        }
        return result;
    }

    /** Spreads {@code bands} over [lower, upper] with equal slack before, between and after them. */
    private static boolean spread(
            List<Integer> bands, Map<Integer, Integer> sizes, int upper, int lower, Map<Integer, Integer> out) {
        if (bands.isEmpty()) {
            return true;
        }
        long total = 0;
        for (int p : bands) {
            total += sizes.get(p);
        }
        long room = (long) upper - lower + 1;
        if (total > room) {
            return false;
        }
        long slack = (room - total) / (bands.size() + 1);
        long cursor = upper - slack;
        for (int p : bands) {
            out.put(p, (int) cursor);
            cursor = cursor - sizes.get(p) - slack;
        }
        return true;
    }

    /**
     * An ACL as found in the northbound database: its external_ids and priority.
     *
     * @param externalIds the row's external_ids
     * @param priority the row's priority
     */
    public record ObservedAcl(Map<String, String> externalIds, int priority) {}

    /**
     * Recovers the packed assignment from ACLs already in the database (at controller start), so that the first
     * translation after a restart keeps every band where it is and writes nothing when nothing changed. An ANP's band
     * top is its ACLs' {@code priority + gress-index}. Bands keyed by precedence (for {@link #assignTier1}), as if no
     * Admin-tier ClusterNetworkPolicy existed: {@link #recoverTier1} knows them too.
     *
     * @param specPriorityByAnp current spec.priority of each AdminNetworkPolicy by name
     * @param acls the zone's ACLs (any owner; others are ignored)
     */
    public static PriorityAssignment recover(Map<String, Integer> specPriorityByAnp, Collection<ObservedAcl> acls) {
        return recover(specPriorityByAnp, Map.of(), acls, true);
    }

    /**
     * As {@link #recover(Map, Collection)}, from the ACLs of the ANPs and of the Admin-tier ClusterNetworkPolicies.
     *
     * @param specPriorityByAnp current spec.priority of each AdminNetworkPolicy by name
     * @param specPriorityByAdminCnp current spec.priority of each Admin-tier ClusterNetworkPolicy by name
     * @param acls the zone's ACLs (any owner; others are ignored)
     */
    public static PriorityAssignment recoverTier1(
            Map<String, Integer> specPriorityByAnp,
            Map<String, Integer> specPriorityByAdminCnp,
            Collection<ObservedAcl> acls) {
        return recover(specPriorityByAnp, specPriorityByAdminCnp, acls, true);
    }

    private static PriorityAssignment recover(
            Map<String, Integer> specPriorityByAnp,
            Map<String, Integer> specPriorityByAdminCnp,
            Collection<ObservedAcl> acls,
            boolean precedenceKeys) {
        TreeMap<Integer, Band> bands = new TreeMap<>();
        for (ObservedAcl acl : acls) {
            Map<String, String> ids = acl.externalIds();
            String owner = ids.get("k8s.ovn.org/owner-type");
            boolean cnp = "ClusterNetworkPolicy".equals(owner);
            if (!"AdminNetworkPolicy".equals(owner) && !cnp) {
                continue;
            }
            Integer spec = (cnp ? specPriorityByAdminCnp : specPriorityByAnp).get(ids.get("k8s.ovn.org/name"));
            String index = ids.get("gress-index");
            if (spec == null
                    || spec <= FORMULA_MAX_PRIORITY
                    || index == null
                    || !index.chars().allMatch(Character::isDigit)) {
                continue;
            }
            int top = acl.priority() + Integer.parseInt(index);
            int key = precedenceKeys ? 2 * spec + (cnp ? 1 : 0) : spec;
            bands.merge(key, new Band(top, 1), (a, b) -> new Band(Math.max(a.top(), b.top()), 1));
        }
        return new PriorityAssignment(bands);
    }

    /** Last resort: bands back to back from the top; whatever does not fit is unplaced. */
    private static Map<Integer, Integer> tight(
            List<Integer> order, Map<Integer, Integer> sizes, Set<Integer> unplaced) {
        Map<Integer, Integer> result = new HashMap<>();
        int cursor = PACKED_TOP;
        for (int priority : order) {
            int size = sizes.get(priority);
            if (cursor - size + 1 >= PACKED_BOTTOM) {
                result.put(priority, cursor);
                cursor -= size;
            } else {
                unplaced.add(priority);
            }
        }
        return result;
    }
}
