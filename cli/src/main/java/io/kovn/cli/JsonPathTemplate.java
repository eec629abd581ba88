package io.kovn.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.spi.json.JacksonJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kubectl's JSONPath template ({@code -o jsonpath=...}): literal text, {@code {PATH}}, quoted literals such as
 * {@code {"\n"}}, and {@code {range PATH}...{end}}. Only this template layer is kovn's; each path is evaluated by
 * Jayway JsonPath. As kubectl: {@code .a.b} and {@code $.a.b} start at the document, inside a range {@code .a} and
 * {@code @.a} start at the current element; the results of a path that selects several values are joined by a space;
 * maps and lists print as JSON; a missing key prints nothing.
 */
final class JsonPathTemplate {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Configuration CONF = Configuration.builder()
            .jsonProvider(new JacksonJsonProvider(JSON))
            .mappingProvider(new JacksonMappingProvider(JSON))
            .options(Option.SUPPRESS_EXCEPTIONS, Option.DEFAULT_PATH_LEAF_TO_NULL)
            .build();

    /** A piece of the template. */
    sealed interface Node {}

    record Text(String text) implements Node {}

    record Path(String source, JsonPath path) implements Node {}

    record Range(Path over, List<Node> body) implements Node {}

    private final String template;
    private final List<Node> nodes;

    private JsonPathTemplate(String template, List<Node> nodes) {
        this.template = template;
        this.nodes = nodes;
    }

    /** Parses a template; a malformed one is an {@link IllegalArgumentException} naming what is wrong. */
    static JsonPathTemplate parse(String template) {
        List<List<Node>> stack = new ArrayList<>();
        List<Range> open = new ArrayList<>();
        stack.add(new ArrayList<>());
        int i = 0;
        while (i < template.length()) {
            int start = template.indexOf('{', i);
            if (start < 0) {
                stack.getLast().add(new Text(template.substring(i)));
                break;
            }
            if (start > i) stack.getLast().add(new Text(template.substring(i, start)));
            int end = closing(template, start);
            String action = template.substring(start + 1, end).strip();
            i = end + 1;
            if (action.isEmpty()) throw bad(template, "empty {} at " + start);
            if (action.startsWith("\"")) {
                stack.getLast().add(new Text(unquote(template, action)));
            } else if (action.equals("end")) {
                if (open.isEmpty()) throw bad(template, "{end} without {range ...}");
                List<Node> body = stack.removeLast();
                Range r = open.removeLast();
                stack.getLast().add(new Range(r.over(), List.copyOf(body)));
            } else if (action.startsWith("range ")) {
                open.add(new Range(path(template, action.substring("range ".length())), List.of()));
                stack.add(new ArrayList<>());
            } else {
                stack.getLast().add(path(template, action));
            }
        }
        if (!open.isEmpty())
            throw bad(template, "{range " + open.getLast().over().source() + "} without {end}");
        return new JsonPathTemplate(template, List.copyOf(stack.getFirst()));
    }

    /** The template applied to a document (a Kubernetes object or list as Jackson reads it). */
    String render(Object document) {
        StringBuilder out = new StringBuilder();
        render(nodes, document, document, out);
        return out.toString();
    }

    /** The template applied to a JSON document. */
    String renderJson(String json) {
        try {
            return render(JSON.readValue(json, Object.class));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private void render(List<Node> nodes, Object root, Object current, StringBuilder out) {
        for (Node n : nodes) {
            switch (n) {
                case Text t -> out.append(t.text());
                case Path p -> {
                    List<Object> values = evaluate(p, root, current);
                    for (int k = 0; k < values.size(); k++) {
                        if (k > 0) out.append(' ');
                        out.append(format(values.get(k)));
                    }
                }
                case Range r -> {
                    for (Object item : evaluateForRange(r.over(), root, current)) render(r.body(), root, item, out);
                }
            }
        }
    }

    /** What a path selects: one value for a definite path (none when missing), every match otherwise. */
    private List<Object> evaluate(Path p, Object root, Object current) {
        Object doc = p.source().startsWith("$") ? root : current;
        Object value = p.path().read(doc, CONF);
        if (p.path().isDefinite()) return value == null ? List.of() : List.of(value);
        return value instanceof List<?> l ? new ArrayList<>(l) : List.of();
    }

    /** A range's elements: the matches of the path, or the elements of the one list it selects. */
    private List<Object> evaluateForRange(Path p, Object root, Object current) {
        List<Object> values = evaluate(p, root, current);
        if (p.path().isDefinite() && values.size() == 1 && values.getFirst() instanceof List<?> l) {
            return new ArrayList<>(l);
        }
        return values;
    }

    private String format(Object value) {
        if (value == null) return "";
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            try {
                return JSON.writeValueAsString(value);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        return value.toString();
    }

    /** The index of the brace closing the action opened at {@code start}; quotes and brackets may hold braces. */
    private static int closing(String template, int start) {
        char quote = 0;
        for (int j = start + 1; j < template.length(); j++) {
            char c = template.charAt(j);
            if (quote != 0) {
                if (c == '\\') j++;
                else if (c == quote) quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '{') {
                throw bad(template, "unexpected { at " + j + " inside the action opened at " + start);
            } else if (c == '}') {
                return j;
            }
        }
        throw bad(template, "unclosed action: no } after the { at " + start);
    }

    private static Path path(String template, String source) {
        String s = source.strip();
        String expr;
        if (s.startsWith("$")) expr = s;
        else if (s.startsWith("@")) expr = "$" + s.substring(1);
        else if (s.startsWith(".") || s.startsWith("[")) expr = "$" + s;
        else throw bad(template, "'" + s + "' is not a path (start it with . or $)");
        if (expr.equals("$.") || expr.equals("$")) expr = "$";
        try {
            return new Path(s, JsonPath.compile(expr));
        } catch (InvalidPathException e) {
            throw bad(template, "bad path '" + s + "': " + e.getMessage());
        }
    }

    private static String unquote(String template, String quoted) {
        if (quoted.length() < 2 || !quoted.endsWith("\"")) throw bad(template, "unterminated string " + quoted);
        String body = quoted.substring(1, quoted.length() - 1);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < body.length(); j++) {
            char c = body.charAt(j);
            if (c != '\\' || j + 1 == body.length()) {
                sb.append(c);
                continue;
            }
            char e = body.charAt(++j);
            sb.append(
                    switch (e) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        default -> e;
                    });
        }
        return sb.toString();
    }

    private static IllegalArgumentException bad(String template, String why) {
        return new IllegalArgumentException("error parsing jsonpath " + template + ": " + why);
    }

    @Override
    public String toString() {
        return template;
    }
}
