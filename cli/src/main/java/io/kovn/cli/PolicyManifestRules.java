package io.kovn.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the API server requires of a policy object before any informer holds one, checked on manifests that no API
 * server has seen ({@code kovn analyze -f}, {@code kovn convert -f}): a name, and label selectors of the
 * {@code LabelSelector} shape (the policy CRDs' OpenAPI schemas and the NetworkPolicy validation): each
 * {@code *Selector} an object, {@code matchLabels} a map of strings, each {@code matchExpressions} item an object with
 * a string {@code key} and {@code operator} and {@code values} a list of strings. kovn's translator may rely on these,
 * so a manifest that breaks them is refused naming the field, rather than failing somewhere inside the analysis.
 */
final class PolicyManifestRules {
    /** The kinds whose selectors are checked: the ones the policy translator reads. */
    static final Set<String> POLICY_KINDS =
            Set.of("NetworkPolicy", "AdminNetworkPolicy", "BaselineAdminNetworkPolicy", "ClusterNetworkPolicy");

    /** The kinds that must be named: the policies and what they select ({@code generateName} is not enough here). */
    static final Set<String> NAMED_KINDS = Set.of(
            "Namespace",
            "Pod",
            "Node",
            "NetworkPolicy",
            "AdminNetworkPolicy",
            "BaselineAdminNetworkPolicy",
            "ClusterNetworkPolicy");

    private PolicyManifestRules() {}

    /**
     * The problems of {@code object} (a Kubernetes object as JSON), each a field path and what is wrong; none if fine.
     */
    static List<String> problems(JsonNode object) {
        List<String> out = new ArrayList<>();
        String kind = object.path("kind").asText();
        JsonNode name = object.path("metadata").path("name");
        if (NAMED_KINDS.contains(kind) && (!name.isTextual() || name.asText().isEmpty())) {
            out.add("metadata.name: required");
        }
        if (POLICY_KINDS.contains(kind)) selectors(object.path("spec"), "spec", out);
        return out;
    }

    private static void selectors(JsonNode node, String path, List<String> out) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) selectors(node.get(i), path + "[" + i + "]", out);
            return;
        }
        if (!node.isObject()) return;
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String at = path + "." + field.getKey();
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "matchLabels" -> {
                    if (!value.isObject() || !allText(value)) out.add(at + ": must be a map of strings");
                }
                case "matchExpressions" -> {
                    if (!value.isArray()) out.add(at + ": must be a list");
                    else requirements(value, at, out);
                }
                default -> {
                    if (field.getKey().endsWith("Selector") && !value.isObject() && !value.isNull()) {
                        out.add(at + ": must be a label selector (an object)");
                    } else {
                        selectors(value, at, out);
                    }
                }
            }
        }
    }

    private static void requirements(JsonNode list, String path, List<String> out) {
        for (int i = 0; i < list.size(); i++) {
            JsonNode r = list.get(i);
            String at = path + "[" + i + "]";
            if (!r.isObject()) {
                out.add(at + ": must be an object with key, operator and values");
                continue;
            }
            if (!r.path("key").isTextual() || r.path("key").asText().isEmpty()) out.add(at + ".key: required");
            if (!r.path("operator").isTextual()) out.add(at + ".operator: required");
            JsonNode values = r.get("values");
            if (values != null && !values.isNull() && !(values.isArray() && allText(values))) {
                out.add(at + ".values: must be a list of strings");
            }
        }
    }

    private static boolean allText(JsonNode container) {
        for (JsonNode v : container) {
            if (!v.isTextual()) return false;
        }
        return true;
    }
}
