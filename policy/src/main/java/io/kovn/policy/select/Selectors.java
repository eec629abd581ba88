package io.kovn.policy.select;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/** Kubernetes label selector semantics. Pure. */
public final class Selectors {
    private Selectors() {}

    /**
     * Whether {@code labels} satisfy {@code selector}: all matchLabels and all matchExpressions ({@code In},
     * {@code NotIn}, {@code Exists}, {@code DoesNotExist}). An empty selector matches everything; a {@code null}
     * selector and an unknown operator match nothing.
     */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> matchLabels = selector.getMatchLabels();
        if (matchLabels != null) {
            for (Map.Entry<String, String> e : matchLabels.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        List<LabelSelectorRequirement> expressions = selector.getMatchExpressions();
        if (expressions != null) {
            for (LabelSelectorRequirement r : expressions) {
                if (!matches(r, labels)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
        String value = labels.get(requirement.getKey());
        List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
        String operator = requirement.getOperator() == null ? "" : requirement.getOperator();
        return switch (operator) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> false;
        };
    }

    /** Whether the selector is present and selects everything ({@code {}}). */
    public static boolean isEmpty(LabelSelector selector) {
        return selector != null
                && (selector.getMatchLabels() == null
                        || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null
                        || selector.getMatchExpressions().isEmpty());
    }
}
