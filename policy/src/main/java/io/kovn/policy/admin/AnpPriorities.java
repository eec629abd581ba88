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
 * Tier-1 ACL priorities for AdminNetworkPolicies over the API's whole range 0..1000.
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
        TreeMap<Integer, Integer> tops = new TreeMap<>();
        TreeSet<Integer> unplaced = new TreeSet<>();
        List<Integer> packed = new ArrayList<>();
        Map<Integer, Integer> sizes = new HashMap<>();
        for (Map.Entry<Integer, Integer> e : sizeBySpecPriority.entrySet()) {
            int priority = e.getKey();
            int size = Math.max(1, e.getValue());
            sizes.put(priority, size);
            if (priority <= FORMULA_MAX_PRIORITY) {
                if (size > FORMULA_BAND) {
                    unplaced.add(priority);
                } else {
                    tops.put(priority, FORMULA_BASE - 100 * priority);
                }
            } else {
                packed.add(priority);
            }
        }
        Map<Integer, Integer> packedTops = pack(packed, sizes, previous, unplaced);
        tops.putAll(packedTops);
        TreeMap<Integer, Band> bands = new TreeMap<>();
        packedTops.forEach((priority, top) -> bands.put(priority, new Band(top, sizes.get(priority))));
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
     * top is its ACLs' {@code priority + gress-index}.
     *
     * @param specPriorityByAnp current spec.priority of each AdminNetworkPolicy by name
     * @param acls the zone's ACLs (any owner; others are ignored)
     */
    public static PriorityAssignment recover(Map<String, Integer> specPriorityByAnp, Collection<ObservedAcl> acls) {
        TreeMap<Integer, Band> bands = new TreeMap<>();
        for (ObservedAcl acl : acls) {
            Map<String, String> ids = acl.externalIds();
            if (!"AdminNetworkPolicy".equals(ids.get("k8s.ovn.org/owner-type"))) {
                continue;
            }
            Integer spec = specPriorityByAnp.get(ids.get("k8s.ovn.org/name"));
            String index = ids.get("gress-index");
            if (spec == null
                    || spec <= FORMULA_MAX_PRIORITY
                    || index == null
                    || !index.chars().allMatch(Character::isDigit)) {
                continue;
            }
            int top = acl.priority() + Integer.parseInt(index);
            bands.merge(spec, new Band(top, 1), (a, b) -> new Band(Math.max(a.top(), b.top()), 1));
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
