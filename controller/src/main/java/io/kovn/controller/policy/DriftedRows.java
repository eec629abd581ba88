package io.kovn.controller.policy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Ids of policy rows that someone else changed since the last reconcile, per table: noted by the NB monitor's thread,
 * drained by the reconcile, which diffs them besides the rows it changed.
 */
final class DriftedRows {
    private Map<String, Set<String>> ids = new HashMap<>();

    synchronized void add(String table, String id) {
        ids.computeIfAbsent(table, t -> new HashSet<>()).add(id);
    }

    /** The ids noted so far; empty afterwards. */
    synchronized Map<String, Set<String>> drain() {
        Map<String, Set<String>> out = ids;
        ids = new HashMap<>();
        return out;
    }
}
