package io.kovn.identity.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.identity.webhook.AdmissionReviewCodec.Parsed;

/**
 * Turns an AdmissionReview body posted to {@code /node}, {@code /pod} or {@code /policy-status} into an HTTP reply: 200
 * with the review response for well-formed reviews, 400 with a message for anything else. No network code here, so the
 * rules can be exercised byte-for-byte without a server.
 */
public final class AdmissionHandler {
    /** Path of the Node webhook. */
    public static final String NODE_PATH = "/node";
    /** Path of the Pod webhook. */
    public static final String POD_PATH = "/pod";
    /** Path of the AdminNetworkPolicy / BaselineAdminNetworkPolicy / ClusterNetworkPolicy status webhook. */
    public static final String POLICY_STATUS_PATH = "/policy-status";

    private final WebhookPolicy policy;
    private final NodeSubnetLookup subnets;

    /** A handler applying the policy; {@code subnets} gives the node-subnets of a node for pod checks. */
    public AdmissionHandler(WebhookPolicy policy, NodeSubnetLookup subnets) {
        this.policy = policy;
        this.subnets = subnets;
    }

    /** Handles one POSTed review. */
    public HttpReply handle(String path, byte[] body) {
        String expectedKind = switch (path) {
            case NODE_PATH -> "Node";
            case POD_PATH -> "Pod";
            case POLICY_STATUS_PATH -> "AdminNetworkPolicy";
            default -> null;
        };
        if (expectedKind == null) {
            return HttpReply.text(404, "no webhook at " + path);
        }
        return switch (AdmissionReviewCodec.parse(body)) {
            case Parsed.Invalid invalid -> HttpReply.text(400, "bad AdmissionReview: " + invalid.message());
            case Parsed.Valid valid -> decide(expectedKind, valid.request());
        };
    }

    private HttpReply decide(String expectedKind, AdmissionRequest request) {
        if (expectedKind.equals("AdminNetworkPolicy")) {
            return decidePolicyStatus(request);
        }
        if (!request.kind().equals(expectedKind)) {
            return HttpReply.text(
                    400, "bad AdmissionReview: kind " + request.kind() + " sent to the " + expectedKind + " webhook");
        }
        AdmissionDecision decision;
        if (!request.operation().equals("UPDATE")) {
            // The webhook is registered for status UPDATEs only; other operations are not its business.
            decision = AdmissionDecision.ALLOW;
        } else {
            try {
                ObjectUpdate update = update(request.oldObject(), request.object(), expectedKind.equals("Pod"));
                decision = expectedKind.equals("Node")
                        ? NodeUpdateRules.check(request.user(), update, policy)
                        : PodUpdateRules.check(request.user(), update, policy, subnets);
            } catch (IllegalArgumentException e) {
                return HttpReply.text(400, "bad AdmissionReview: " + e.getMessage());
            }
        }
        return HttpReply.json(AdmissionReviewCodec.response(request.uid(), decision));
    }

    private HttpReply decidePolicyStatus(AdmissionRequest request) {
        if (!PolicyStatusRules.KINDS.contains(request.kind())) {
            return HttpReply.text(
                    400, "bad AdmissionReview: kind " + request.kind() + " sent to the policy status webhook");
        }
        AdmissionDecision decision;
        if (!request.operation().equals("UPDATE")) {
            decision = AdmissionDecision.ALLOW;
        } else {
            try {
                decision =
                        PolicyStatusRules.check(request.user(), request.kind(), request.oldObject(), request.object());
            } catch (IllegalArgumentException e) {
                return HttpReply.text(400, "bad AdmissionReview: " + e.getMessage());
            }
        }
        return HttpReply.json(AdmissionReviewCodec.response(request.uid(), decision));
    }

    /** Reduces the old and new objects of an UPDATE to what the rules need. */
    static ObjectUpdate update(JsonNode oldObject, JsonNode newObject, boolean pod) {
        String name = AdmissionReviewCodec.text(AdmissionReviewCodec.object(newObject, "metadata"), "name");
        return new ObjectUpdate(
                name,
                AdmissionReviewCodec.annotations(oldObject),
                AdmissionReviewCodec.annotations(newObject),
                withoutAnnotations(oldObject).equals(withoutAnnotations(newObject)),
                pod ? nodeName(oldObject) : "",
                pod ? nodeName(newObject) : "",
                pod && hostNetwork(newObject));
    }

    private static JsonNode withoutAnnotations(JsonNode object) {
        ObjectNode copy = (ObjectNode) object.deepCopy();
        if (copy.get("metadata") instanceof ObjectNode metadata) {
            metadata.remove("annotations");
            metadata.remove("managedFields"); // rewritten by the API server on every update
        }
        return copy;
    }

    private static String nodeName(JsonNode pod) {
        JsonNode spec = pod.get("spec");
        if (spec == null || spec.isNull()) {
            return "";
        }
        if (!spec.isObject()) {
            throw new IllegalArgumentException("spec is not an object");
        }
        JsonNode node = spec.get("nodeName");
        if (node == null || node.isNull()) {
            return "";
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException("spec.nodeName is not a string");
        }
        return node.asText();
    }

    private static boolean hostNetwork(JsonNode pod) {
        JsonNode value = pod.path("spec").get("hostNetwork");
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException("spec.hostNetwork is not a boolean");
        }
        return value.asBoolean();
    }
}
