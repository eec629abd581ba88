package io.kovn.k8s.events;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Pure edits of a {@code status.conditions} list in its JSON form (list of maps), following metav1.Condition
 * conventions: one entry per type, {@code lastTransitionTime} moves only when the status changes,
 * {@code observedGeneration} records the generation the condition describes.
 */
final class StatusConditions {

    private StatusConditions() {}

    /**
     * The list with {@code desired} set; empty if it already holds an equal condition for {@code generation} (nothing
     * to write).
     */
    static Optional<List<Map<String, Object>>> set(
            List<Map<String, Object>> current, DesiredCondition desired, Instant now, Long generation) {
        List<Map<String, Object>> result = new ArrayList<>();
        boolean found = false;
        boolean changed = false;
        for (Map<String, Object> condition : current) {
            if (!desired.type().equals(condition.get("type"))) {
                result.add(condition);
                continue;
            }
            if (found) {
                changed = true; // a duplicate of the type: drop it
                continue;
            }
            found = true;
            Map<String, Object> updated = toMap(desired, now, generation);
            if (desired.status().name().equals(condition.get("status"))
                    && condition.get("lastTransitionTime") != null) {
                updated.put("lastTransitionTime", condition.get("lastTransitionTime"));
            }
            changed |= !sameFields(condition, updated);
            result.add(updated);
        }
        if (!found) {
            result.add(toMap(desired, now, generation));
            changed = true;
        }
        return changed ? Optional.of(List.copyOf(result)) : Optional.empty();
    }

    /** The list without conditions of {@code type}; empty if it had none. */
    static Optional<List<Map<String, Object>>> remove(List<Map<String, Object>> current, String type) {
        List<Map<String, Object>> result =
                current.stream().filter(c -> !type.equals(c.get("type"))).toList();
        return result.size() == current.size() ? Optional.empty() : Optional.of(result);
    }

    private static boolean sameFields(Map<String, Object> current, Map<String, Object> updated) {
        for (String field : List.of("status", "reason", "message", "lastTransitionTime", "observedGeneration")) {
            if (!Objects.equals(asText(current.get(field)), asText(updated.get(field)))) {
                return false;
            }
        }
        return true;
    }

    private static String asText(Object value) {
        return value == null ? null : value.toString();
    }

    private static Map<String, Object> toMap(DesiredCondition desired, Instant now, Long generation) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", desired.type());
        condition.put("status", desired.status().name());
        condition.put("reason", desired.reason());
        condition.put("message", desired.message());
        condition.put("lastTransitionTime", now.toString());
        if (generation != null) {
            condition.put("observedGeneration", generation);
        }
        return condition;
    }
}
