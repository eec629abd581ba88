package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which current rows a diff may update and delete, judged by their {@code external_ids}: one
 * {@link Owner}, or several at once ({@link #anyOf}) so that the rows of a few owners are
 * reconciled in one transaction without touching the others.
 */
public interface Ownership {

    /** Whether a row with these external ids is in scope. */
    boolean owns(Map<?, ?> rowExternalIds);

    /** Whether a row is in scope (judged by its {@code external_ids} column). */
    default boolean owns(Row row) {
        return row.get("external_ids") instanceof Map<?, ?> ids && owns(ids);
    }

    /**
     * The rows of any of {@code owners}. Owners that each pin the same keys to one value each (the
     * usual case: controller, owner type and name) are looked up in a hash set, so the cost per row
     * does not grow with the number of owners.
     */
    static Ownership anyOf(Collection<Owner> owners) {
        List<Owner> list = List.copyOf(owners);
        if (list.isEmpty()) {
            return new Ownership() {
                @Override
                public boolean owns(Map<?, ?> ids) {
                    return false;
                }

                @Override
                public String toString() {
                    return "no owner";
                }
            };
        }
        Set<String> keys = list.getFirst().externalIds().keySet();
        boolean exact = list.stream().allMatch(o -> o.externalIds().keySet().equals(keys)
                && o.externalIds().values().stream().allMatch(v -> v.size() == 1));
        if (!exact) {
            return new Ownership() {
                @Override
                public boolean owns(Map<?, ?> ids) {
                    return list.stream().anyMatch(o -> o.owns(ids));
                }

                @Override
                public String toString() {
                    return "any of " + list;
                }
            };
        }
        List<String> order = List.copyOf(keys);
        Set<List<Object>> values = new HashSet<>();
        for (Owner o : list) {
            List<Object> tuple = new ArrayList<>(order.size());
            order.forEach(k -> tuple.add(o.externalIds().get(k).iterator().next()));
            values.add(tuple);
        }
        // the key with the most distinct values rules out most rows with one lookup
        String sharpest = order.stream().max(java.util.Comparator.comparingLong(k -> list.stream()
                .map(o -> o.externalIds().get(k)).distinct().count())).orElseThrow();
        Set<Object> sharpestValues = new HashSet<>();
        list.forEach(o -> sharpestValues.addAll(o.externalIds().get(sharpest)));
        return new Ownership() {
            @Override
            public boolean owns(Map<?, ?> ids) {
                if (!sharpestValues.contains(ids.get(sharpest))) {
                    return false;
                }
                List<Object> tuple = new ArrayList<>(order.size());
                for (String k : order) {
                    Object v = ids.get(k);
                    if (v == null) {
                        return false;
                    }
                    tuple.add(v);
                }
                return values.contains(tuple);
            }

            @Override
            public String toString() {
                return "any of " + list.size() + " owners " + order + " in " + values;
            }
        };
    }
}
