package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code k8s.ovn.org/trust-zones} (specification 000): an admin-set map from chassis system-id (or
 * {@value #DEFAULT_KEY}) to the trust zones that chassis belongs to, e.g.
 * {@code {"__default":["tz1"],"<system-id2>":["tz2"]}}.
 *
 * <p>A chassis uses its own system-id key, else {@value #DEFAULT_KEY}, else it has no zones. The specification's
 * possible future per-VTEP forms ({@code {"<id>":{"vtep1":["tz1"]}}} and {@code {"<id>:vtep1":["tz1"]}}) are rejected
 * with a clear error rather than misread; so is an empty zone list, because an admin who writes one most likely meant
 * isolation, not "no zones" (which connects to every zone-less chassis).
 *
 * @param zonesByKey key (system-id or {@value #DEFAULT_KEY}) to its non-empty set of zone names
 */
public record TrustZones(Map<String, Set<String>> zonesByKey) {
    /** The key whose zones apply to every chassis of the node without a key of its own. */
    public static final String DEFAULT_KEY = "__default";

    private static final String KEY = OvnAnnotations.TRUST_ZONES;

    public TrustZones {
        Map<String, Set<String>> copy = new TreeMap<>();
        zonesByKey.forEach((k, v) -> copy.put(k, Collections.unmodifiableSet(new TreeSet<>(v))));
        zonesByKey = Collections.unmodifiableMap(new LinkedHashMap<>(copy));
    }

    /**
     * The zones of the chassis with the given system-id: its own key, else {@value #DEFAULT_KEY}, else the empty set
     * (no zones).
     */
    public Set<String> zonesFor(String systemId) {
        Set<String> own = zonesByKey.get(systemId);
        if (own != null) {
            return own;
        }
        return zonesByKey.getOrDefault(DEFAULT_KEY, Set.of());
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the key and the problem (not JSON, a per-VTEP form, an empty or
     *     non-string zone)
     */
    public static TrustZones parse(String value) {
        JsonNode root = AnnotationJson.read(KEY, value);
        if (!root.isObject()) {
            throw new AnnotationFormatException(
                    KEY,
                    "must be a JSON object of chassis system-id (or \"__default\") " + "to a list of zone names, got "
                            + AnnotationJson.describe(root));
        }
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            String key = e.getKey();
            JsonNode zones = e.getValue();
            if (key.isEmpty()) {
                throw new AnnotationFormatException(KEY, "empty chassis key");
            }
            if (key.indexOf(':') >= 0) {
                throw new AnnotationFormatException(
                        KEY,
                        "key \"" + key
                                + "\" looks like the per-VTEP form \"<system-id>:<vtep>\", which is not supported");
            }
            if (zones.isObject()) {
                throw new AnnotationFormatException(
                        KEY,
                        "key \"" + key
                                + "\" maps to an object (per-VTEP trust zones), which is not supported; use a list of zone names");
            }
            if (!zones.isArray()) {
                throw new AnnotationFormatException(
                        KEY,
                        "key \"" + key + "\" must map to a list of zone names, got " + AnnotationJson.describe(zones));
            }
            if (zones.isEmpty()) {
                throw new AnnotationFormatException(
                        KEY, "key \"" + key + "\" has an empty zone list; remove the key for \"no zones\"");
            }
            Set<String> names = new TreeSet<>();
            for (int i = 0; i < zones.size(); i++) {
                String zone = AnnotationJson.text(KEY, zones.get(i), "key \"" + key + "\" zone [" + i + "]");
                if (zone.isBlank()) {
                    throw new AnnotationFormatException(KEY, "key \"" + key + "\" zone [" + i + "] is empty");
                }
                names.add(zone);
            }
            out.put(key, names);
        }
        return new TrustZones(out);
    }

    /** The annotation value, compact JSON with keys and zones sorted. */
    public String format() {
        ObjectNode root = AnnotationJson.MAPPER.createObjectNode();
        zonesByKey.forEach((k, zones) -> {
            ArrayNode list = root.putArray(k);
            zones.forEach(list::add);
        });
        return AnnotationJson.write(root);
    }
}
