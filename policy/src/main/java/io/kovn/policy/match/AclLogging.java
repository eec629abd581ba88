package io.kovn.policy.match;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kovn.policy.model.AclAction;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * ACL logging levels from the {@code k8s.ovn.org/acl-logging} annotation, e.g.
 * {@code {"allow":"notice","deny":"alert","pass":"warning"}}. Unknown levels are ignored; invalid JSON turns logging
 * off for the whole policy (and is reported).
 *
 * @param allow severity for allow ACLs
 * @param deny severity for drop ACLs
 * @param pass severity for pass ACLs
 * @param valid false when the annotation was present but not valid JSON
 */
public record AclLogging(Optional<String> allow, Optional<String> deny, Optional<String> pass, boolean valid) {
    /** The annotation key. */
    public static final String ANNOTATION = "k8s.ovn.org/acl-logging";
    /** Severities ovn-controller accepts. */
    public static final Set<String> LEVELS = Set.of("alert", "warning", "notice", "info", "debug");
    /** No logging. */
    public static final AclLogging OFF = new AclLogging(Optional.empty(), Optional.empty(), Optional.empty(), true);

    /** Made on the first annotation read: most clusters have none, and a mapper costs a cold start ~0.1 s. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    /** Reads the annotation from an object's annotations (absent = off). */
    public static AclLogging fromAnnotations(Map<String, String> annotations) {
        String value = annotations == null ? null : annotations.get(ANNOTATION);
        if (value == null || value.isBlank()) {
            return OFF;
        }
        try {
            JsonNode node = Json.MAPPER.readTree(value);
            if (node == null || !node.isObject()) {
                return new AclLogging(Optional.empty(), Optional.empty(), Optional.empty(), false);
            }
            return new AclLogging(level(node, "allow"), level(node, "deny"), level(node, "pass"), true);
        } catch (IOException e) {
            return new AclLogging(Optional.empty(), Optional.empty(), Optional.empty(), false);
        }
    }

    private static Optional<String> level(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || !LEVELS.contains(v.asText())) {
            return Optional.empty();
        }
        return Optional.of(v.asText());
    }

    /** The severity for an ACL with {@code action}, if that action is logged. */
    public Optional<String> severityFor(AclAction action) {
        return switch (action) {
            case ALLOW, ALLOW_RELATED -> allow;
            case DROP -> deny;
            case PASS -> pass;
        };
    }
}
