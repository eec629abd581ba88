package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code k8s.ovn.org/node-subnets}: the node subnets per network, e.g. {@code {"default":["10.244.0.0/24"]}} or dual
 * stack {@code {"default":["10.244.0.0/24","fd00:10:244:1::/64"]}}. The reference's older single-string form
 * ({@code {"default":"10.244.0.0/24"}}) is read too; the list form is always written.
 *
 * @param byNetwork network name to its subnets (at most one per IP family), in written order
 */
public record NodeSubnets(Map<String, List<IpPrefix>> byNetwork) {
    private static final String KEY = OvnAnnotations.NODE_SUBNETS;

    public NodeSubnets {
        Map<String, List<IpPrefix>> copy = new TreeMap<>();
        byNetwork.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        byNetwork = Collections.unmodifiableMap(new LinkedHashMap<>(copy));
    }

    /** The default network's subnets only. */
    public static NodeSubnets ofDefault(List<IpPrefix> subnets) {
        return new NodeSubnets(Map.of(OvnAnnotations.DEFAULT_NETWORK, subnets));
    }

    /** The subnets of the default network, empty when it has none. */
    public List<IpPrefix> defaultNetwork() {
        return byNetwork.getOrDefault(OvnAnnotations.DEFAULT_NETWORK, List.of());
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the offending entry
     */
    public static NodeSubnets parse(String value) {
        JsonNode root = AnnotationJson.read(KEY, value);
        if (!root.isObject()) {
            throw new AnnotationFormatException(
                    KEY, "must be a JSON object of network name to subnets, got " + AnnotationJson.describe(root));
        }
        Map<String, List<IpPrefix>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            String where = "network \"" + e.getKey() + "\"";
            List<String> texts = e.getValue().isTextual()
                    ? List.of(e.getValue().textValue())
                    : AnnotationJson.strings(KEY, e.getValue(), where);
            if (texts.isEmpty()) {
                throw new AnnotationFormatException(KEY, where + " has no subnets");
            }
            List<IpPrefix> subnets = new ArrayList<>();
            for (String t : texts) {
                IpPrefix p = AnnotationJson.cidr(KEY, t, where);
                if (!p.isNetwork()) {
                    throw new AnnotationFormatException(
                            KEY, where + ": " + t + " has host bits set (network is " + p.network() + ")");
                }
                for (IpPrefix other : subnets) {
                    if (other.family() == p.family()) {
                        throw new AnnotationFormatException(
                                KEY,
                                where + ": more than one " + p.family().key() + " subnet (" + other + ", " + p + ")");
                    }
                }
                subnets.add(p);
            }
            out.put(e.getKey(), subnets);
        }
        return new NodeSubnets(out);
    }

    /** The annotation value, compact JSON with networks sorted by name. */
    public String format() {
        ObjectNode root = AnnotationJson.MAPPER.createObjectNode();
        byNetwork.forEach((network, subnets) -> {
            ArrayNode list = root.putArray(network);
            subnets.forEach(s -> list.add(s.toString()));
        });
        return AnnotationJson.write(root);
    }
}
