package io.kovn.k8s.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What a real API server does to core objects that fabric8's mock does not, as pure functions on
 * JSON trees (the mock already handles custom resources with a {@code status} subresource):
 * <ul>
 *   <li>every Namespace carries the immutable label {@code kubernetes.io/metadata.name=<name>};</li>
 *   <li>{@code status} of pods, nodes, services and namespaces is a subresource: writes to the object
 *       keep the stored status (writes to {@code /status} keep the rest, which the mock already does);</li>
 *   <li>on create a Pod's status is reset to {@code Pending}, a Service's to empty and a Namespace's to
 *       {@code Active}; a Node keeps the status the kubelet registers it with.</li>
 * </ul>
 */
final class ApiServerRules {

    static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ApiServerRules() {}

    /** The object as stored on create of {@code plural}. */
    static ObjectNode onCreate(String plural, ObjectNode object) {
        ObjectNode result = object.deepCopy();
        switch (plural) {
            case "namespaces" -> {
                labelNamespace(result);
                result.set("status", JSON.objectNode().put("phase", "Active"));
            }
            case "pods" -> result.set("status", JSON.objectNode().put("phase", "Pending"));
            case "services" -> result.set("status", JSON.objectNode().set("loadBalancer", JSON.objectNode()));
            default -> { }
        }
        return result;
    }

    /** The admin identity of requests that impersonate no one. */
    static final String ADMIN_USER = "kubernetes-admin";

    /**
     * A CertificateSigningRequest as stored: {@code spec.username} and {@code spec.groups} name the
     * requester (never what the client wrote), {@code spec.uid} is cleared.
     */
    static ObjectNode withRequester(ObjectNode csr, String impersonatedUser, List<String> impersonatedGroups) {
        ObjectNode result = csr.deepCopy();
        ObjectNode spec = result.has("spec") && result.get("spec") instanceof ObjectNode o ? o : result.putObject("spec");
        boolean impersonating = impersonatedUser != null && !impersonatedUser.isBlank();
        spec.put("username", impersonating ? impersonatedUser : ADMIN_USER);
        var groups = spec.putArray("groups");
        if (impersonating) {
            impersonatedGroups.forEach(groups::add);
        } else {
            groups.add("system:masters");
        }
        groups.add("system:authenticated");
        spec.remove("uid");
        return result;
    }

    /** The object as stored on a write to the object (not {@code /status}) given the stored one. */
    static ObjectNode onUpdate(String plural, ObjectNode incoming, JsonNode existing) {
        ObjectNode result = incoming.deepCopy();
        JsonNode status = existing.get("status");
        if (status == null || status.isNull()) {
            result.remove("status");
        } else {
            result.set("status", status.deepCopy());
        }
        if (plural.equals("namespaces")) {
            labelNamespace(result);
        }
        return result;
    }

    private static void labelNamespace(ObjectNode namespace) {
        JsonNode metadata = namespace.get("metadata");
        if (!(metadata instanceof ObjectNode meta) || !meta.hasNonNull("name")) {
            return; // the mock rejects it with 422 anyway
        }
        JsonNode labels = meta.get("labels");
        ObjectNode labelNode = labels instanceof ObjectNode existing ? existing : meta.putObject("labels");
        labelNode.put(NAMESPACE_NAME_LABEL, meta.get("name").asText());
    }

    /** How a patch of some content type is applied. */
    enum PatchKind {
        JSON_PATCH,
        MERGE_PATCH,
        /** Server-side apply, or strategic merge on a custom resource: refused (415), as kovn must not need it. */
        UNSUPPORTED;

        /**
         * The kind for {@code contentType} on a core ({@code coreGroup}) or custom resource. A strategic
         * merge patch of a core object is applied as a merge patch: the same result except for lists
         * with merge keys, which kovn does not patch that way.
         */
        static PatchKind of(String contentType, boolean coreGroup) {
            String type = contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase();
            return switch (type) {
                case "application/json-patch+json" -> JSON_PATCH;
                case "application/merge-patch+json" -> MERGE_PATCH;
                case "application/strategic-merge-patch+json" -> coreGroup ? MERGE_PATCH : UNSUPPORTED;
                default -> UNSUPPORTED;
            };
        }
    }

    /** Applies {@code patch} of {@code kind} (not {@link PatchKind#UNSUPPORTED}) to {@code target}. */
    static JsonNode applyPatch(PatchKind kind, JsonNode target, JsonNode patch) {
        return switch (kind) {
            case JSON_PATCH -> JsonPatch.apply(patch, target);
            case MERGE_PATCH -> mergePatch(target, patch);
            case UNSUPPORTED -> throw new IllegalArgumentException("unsupported patch type");
        };
    }

    /** RFC 7386: objects merge recursively, {@code null} removes a member, anything else replaces. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : JSON.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), mergePatch(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }
}
