package io.kovn.cli.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;

/**
 * The parts of the CRDs' OpenAPI schemas (deploy/helm/kovn/crds) that the translators rely on and that a fuzzer breaks
 * first: every label selector ({@code *Selector}) is a {@code LabelSelector} object (string {@code matchLabels}; each
 * {@code matchExpressions} item with a string {@code key} and {@code operator}, {@code values} strings). The API server
 * refuses objects that break them, so no informer ever holds one; the targets skip them rather than report what cannot
 * happen.
 */
final class CrdSchemaRules {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CrdSchemaRules() {}

    /** Whether {@code json} is an object whose label selectors the CRD schema would admit. */
    static boolean admits(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (IOException e) {
            return false;
        }
        return root != null && root.isObject() && selectorsValid(root);
    }

    private static boolean selectorsValid(JsonNode node) {
        if (node.isArray()) {
            for (JsonNode item : node) {
                if (!selectorsValid(item)) {
                    return false;
                }
            }
            return true;
        }
        if (!node.isObject()) {
            return true;
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            boolean ok = switch (field.getKey()) {
                case "matchLabels" -> value.isObject() && allText(value);
                case "matchExpressions" -> value.isArray() && requirements(value);
                default -> (!field.getKey().endsWith("Selector") || value.isObject()) && selectorsValid(value);
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean requirements(JsonNode list) {
        for (JsonNode r : list) {
            if (!r.isObject()
                    || !r.path("key").isTextual()
                    || !r.path("operator").isTextual()) {
                return false;
            }
            JsonNode values = r.get("values");
            if (values != null && !(values.isArray() && allText(values))) {
                return false;
            }
        }
        return true;
    }

    private static boolean allText(JsonNode container) {
        for (JsonNode v : container) {
            if (!v.isTextual()) {
                return false;
            }
        }
        return true;
    }
}
