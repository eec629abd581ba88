package io.kovn.controller.clustermanager;

import io.kovn.policy.model.ZoneCondition;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Which {@code Ready-In-Zone-<zone>} conditions of an ANP/BANP belong to no existing node: a zone is a node, so the
 * condition of a deleted node's zone would otherwise stay forever (nobody else writes or removes it). Pure: condition
 * types and node names in, the types to remove out.
 */
final class StaleZoneConditions {
    private static final String PREFIX = ZoneCondition.typeFor("");

    private StaleZoneConditions() {}

    /**
     * The zone condition types among {@code types} whose zone is not in {@code nodes}, in their order, each once; other
     * condition types are never returned.
     */
    static List<String> of(Collection<String> types, Set<String> nodes) {
        return types.stream()
                .filter(t -> t != null && t.startsWith(PREFIX))
                .filter(t -> !nodes.contains(t.substring(PREFIX.length())))
                .distinct()
                .toList();
    }

    /** The zone a condition type names ({@code Ready-In-Zone-b} → {@code b}). */
    static String zoneOf(String type) {
        return type.substring(PREFIX.length());
    }
}
