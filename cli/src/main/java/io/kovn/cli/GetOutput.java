package io.kovn.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code kovn get -o}: how the objects are printed, as kubectl prints them. */
sealed interface GetOutput {
    /** The default table, or {@code -o wide} with more columns. */
    record Table(boolean wide) implements GetOutput {}

    /** {@code -o name}: {@code pod/web}, {@code adminnetworkpolicy.policy.networking.k8s.io/deny}. */
    record Name() implements GetOutput {}

    record Yaml() implements GetOutput {}

    record Json() implements GetOutput {}

    /** {@code -o jsonpath=TEMPLATE}. */
    record JsonPath(JsonPathTemplate template) implements GetOutput {}

    /** The {@code -o} argument; null is the table. */
    static GetOutput parse(String output) {
        if (output == null) return new Table(false);
        int eq = output.indexOf('=');
        String format = eq < 0 ? output : output.substring(0, eq);
        if (format.equals("jsonpath")) {
            if (eq < 0 || output.length() == eq + 1) {
                throw new IllegalArgumentException(
                        "-o jsonpath needs a template: -o jsonpath='{.items[*].metadata.name}'");
            }
            return new JsonPath(JsonPathTemplate.parse(output.substring(eq + 1)));
        }
        return switch (output) {
            case "wide" -> new Table(true);
            case "name" -> new Name();
            case "yaml" -> new Yaml();
            case "json" -> new Json();
            default ->
                throw new IllegalArgumentException(
                        "unknown output format '" + output + "'; -o takes wide, name, yaml, json or jsonpath=TEMPLATE");
        };
    }

    /**
     * The objects as this output prints them.
     *
     * @param one a single object was asked for by name (printed as itself, not as a List)
     * @param allNamespaces {@code -A}: the table has a NAMESPACE column
     */
    default String render(Kinds k, List<GenericKubernetesResource> items, boolean one, boolean allNamespaces) {
        Object doc = one && items.size() == 1 ? items.getFirst() : list(items);
        return switch (this) {
            case Table t -> items.isEmpty() ? "" : Tables.render(k, items, t.wide(), allNamespaces);
            case Name n -> {
                StringBuilder sb = new StringBuilder();
                items.forEach(r -> sb.append(name(k, r)).append('\n'));
                yield sb.toString();
            }
            case Yaml y -> Serialization.asYaml(doc);
            case Json j -> Serialization.asJson(doc) + "\n";
            case JsonPath p -> p.template().renderJson(Serialization.asJson(doc));
        };
    }

    /** kubectl's List wrapper of several objects. */
    private static Map<String, Object> list(List<GenericKubernetesResource> items) {
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("apiVersion", "v1");
        list.put("kind", "List");
        list.put("items", items);
        return list;
    }

    /** {@code kind[.group]/name}, lower case, as {@code kubectl get -o name}. */
    static String name(Kinds k, GenericKubernetesResource r) {
        String kind = k.kind.toLowerCase(Locale.ROOT);
        return (k.group.isEmpty() ? kind : kind + "." + k.group) + "/"
                + r.getMetadata().getName();
    }
}
