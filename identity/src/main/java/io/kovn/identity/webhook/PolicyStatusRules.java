package io.kovn.identity.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.Set;

/**
 * What a node identity may change on an AdminNetworkPolicy, BaselineAdminNetworkPolicy or ClusterNetworkPolicy
 * ({@code adminnetworkpolicies/status}, {@code baselineadminnetworkpolicies/status},
 * {@code clusternetworkpolicies/status} UPDATE): only the condition its own zone reports, {@code Ready-In-Zone-<node>}.
 * Everything else — the spec, labels and annotations, every other zone's condition — must stay as it was. RBAC can only
 * grant the status subresource of every policy; this is the part it cannot say. Other users are unaffected.
 */
public final class PolicyStatusRules {
    /** The condition type a zone reports on every policy it programs. */
    public static final String ZONE_CONDITION_PREFIX = "Ready-In-Zone-";
    /** The kinds whose status the rules cover (v1alpha1 ANP and BANP, v1alpha2 ClusterNetworkPolicy). */
    public static final Set<String> KINDS =
            Set.of("AdminNetworkPolicy", "BaselineAdminNetworkPolicy", "ClusterNetworkPolicy");

    private PolicyStatusRules() {}

    /** Checks one update of a policy by a user; {@code oldObject}/{@code newObject} as the API server sent them. */
    public static AdmissionDecision check(UserInfo user, String kind, JsonNode oldObject, JsonNode newObject) {
        Optional<String> node = user.nodeIdentity();
        if (node.isEmpty()) {
            return AdmissionDecision.ALLOW;
        }
        String own = ZONE_CONDITION_PREFIX + node.get();
        if (!withoutOwnCondition(oldObject, own).equals(withoutOwnCondition(newObject, own))) {
            String name = newObject.path("metadata").path("name").asText("");
            return AdmissionDecision.deny(
                    "node identity %s may change only the condition %s of %s %s", user.username(), own, kind, name);
        }
        return AdmissionDecision.ALLOW;
    }

    /** The object without what may change: the zone's own condition and the server-kept managedFields. */
    private static JsonNode withoutOwnCondition(JsonNode object, String own) {
        if (!(object instanceof ObjectNode copy)) {
            throw new IllegalArgumentException("object is not a JSON object");
        }
        ObjectNode result = copy.deepCopy();
        if (result.get("metadata") instanceof ObjectNode metadata) {
            metadata.remove("managedFields");
        }
        if (result.get("status") instanceof ObjectNode status
                && status.get("conditions") instanceof ArrayNode conditions) {
            ArrayNode kept = conditions.arrayNode();
            conditions.forEach(c -> {
                if (!own.equals(c.path("type").asText(null))) kept.add(c);
            });
            if (kept.isEmpty()) {
                status.remove("conditions");
            } else {
                status.set("conditions", kept);
            }
            if (status.isEmpty()) {
                result.remove("status");
            }
        }
        return result;
    }
}
