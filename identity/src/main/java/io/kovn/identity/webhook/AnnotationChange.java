package io.kovn.identity.webhook;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How one annotation key differs between the old and the new object.
 *
 * @param action added, changed or removed
 * @param oldValue the value before (null when added)
 * @param newValue the value after (null when removed)
 */
public record AnnotationChange(Action action, String oldValue, String newValue) {
    /** Kinds of change. */
    public enum Action {
        ADDED,
        CHANGED,
        REMOVED
    }

    /** Every key whose value differs, sorted by key (for stable messages). */
    public static Map<String, AnnotationChange> diff(Map<String, String> before, Map<String, String> after) {
        Map<String, AnnotationChange> changes = new TreeMap<>();
        before.forEach((key, value) -> {
            if (!after.containsKey(key)) {
                changes.put(key, new AnnotationChange(Action.REMOVED, value, null));
            } else if (!Objects.equals(value, after.get(key))) {
                changes.put(key, new AnnotationChange(Action.CHANGED, value, after.get(key)));
            }
        });
        after.forEach((key, value) -> {
            if (!before.containsKey(key)) {
                changes.put(key, new AnnotationChange(Action.ADDED, null, value));
            }
        });
        return changes;
    }
}
