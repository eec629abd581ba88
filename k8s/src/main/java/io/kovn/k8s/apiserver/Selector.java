package io.kovn.k8s.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector plus field selector, evaluated on an object's JSON: the parts of list
 * and watch filtering the mock does not do itself (set-based label requirements, field selectors on
 * anything but {@code metadata.name}/{@code metadata.namespace}, {@code !=} on fields). Pure.
 */
record Selector(List<Requirement> labels, List<Requirement> fields) {

    /** One requirement: {@code key op values}. */
    record Requirement(String key, Op op, Set<String> values) {}

    /** Selector operators. */
    enum Op { EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, NOT_EXISTS }

    private static final Pattern SET = Pattern.compile("^(?<key>[^\\s!=,()]+)\\s+(?<op>in|notin)\\s*\\((?<values>[^)]*)\\)$");
    private static final Pattern BINARY = Pattern.compile("^(?<key>[^\\s!=,()]+)\\s*(?<op>==|=|!=)\\s*(?<value>[^\\s!=,()]*)$");
    private static final Pattern EXISTS = Pattern.compile("^(?<not>!)?\\s*(?<key>[^\\s!=,()]+)$");
    private static final Set<String> MOCK_FIELDS = Set.of("metadata.name", "metadata.namespace");

    static Selector parse(String labelSelector, String fieldSelector) {
        return new Selector(requirements(labelSelector), requirements(fieldSelector));
    }

    /** Whether the mock evaluates these selectors correctly on its own (equality, existence, {@code !=} labels). */
    static boolean mockCanEvaluate(String labelSelector, String fieldSelector) {
        Selector selector = parse(labelSelector, fieldSelector);
        return selector.labels.stream().noneMatch(r -> r.op == Op.IN || r.op == Op.NOT_IN)
                && selector.fields.stream().allMatch(r -> r.op == Op.EQUALS && MOCK_FIELDS.contains(r.key));
    }

    boolean matches(JsonNode object) {
        JsonNode labelNode = object.path("metadata").path("labels");
        for (Requirement requirement : labels) {
            JsonNode value = labelNode.get(requirement.key);
            if (!holds(requirement, value == null || value.isNull() ? null : value.asText())) {
                return false;
            }
        }
        for (Requirement requirement : fields) {
            JsonNode node = object;
            for (String part : requirement.key.split("\\.")) {
                node = node.path(part);
            }
            // an absent field compares as the empty string, as the API server's field sets do
            if (!holds(requirement, node.isValueNode() ? node.asText() : "")) {
                return false;
            }
        }
        return true;
    }

    private static boolean holds(Requirement requirement, String value) {
        return switch (requirement.op) {
            case EQUALS, IN -> value != null && requirement.values.contains(value);
            case NOT_EQUALS, NOT_IN -> value == null || !requirement.values.contains(value);
            case EXISTS -> value != null;
            case NOT_EXISTS -> value == null;
        };
    }

    private static List<Requirement> requirements(String selector) {
        List<Requirement> result = new ArrayList<>();
        if (selector == null || selector.isBlank()) {
            return result;
        }
        for (String term : splitTopLevel(selector)) {
            result.add(requirement(term.trim()));
        }
        return List.copyOf(result);
    }

    private static Requirement requirement(String term) {
        Matcher m = SET.matcher(term);
        if (m.matches()) {
            Set<String> values = Set.of(m.group("values").trim().isEmpty() ? new String[0]
                    : java.util.Arrays.stream(m.group("values").split(",")).map(String::trim).distinct().toArray(String[]::new));
            return new Requirement(m.group("key"), m.group("op").equals("in") ? Op.IN : Op.NOT_IN, values);
        }
        m = BINARY.matcher(term);
        if (m.matches()) {
            return new Requirement(m.group("key"), m.group("op").equals("!=") ? Op.NOT_EQUALS : Op.EQUALS, Set.of(m.group("value")));
        }
        m = EXISTS.matcher(term);
        if (m.matches()) {
            return new Requirement(m.group("key"), m.group("not") != null ? Op.NOT_EXISTS : Op.EXISTS, Set.of());
        }
        throw new IllegalArgumentException("unable to parse requirement: " + term);
    }

    /** Splits on commas outside parentheses ({@code a in (x,y),b=c} is two terms). */
    private static List<String> splitTopLevel(String selector) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < selector.length(); i++) {
            char c = selector.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                terms.add(selector.substring(start, i));
                start = i + 1;
            }
        }
        terms.add(selector.substring(start));
        return terms;
    }
}
