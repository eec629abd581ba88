package io.kovn.identity.webhook;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads AdmissionReview v1 requests and writes responses. Anything that is not a well-formed review is
 * {@link Parsed.Invalid}, which the HTTP layer answers with 400: never an allow.
 */
public final class AdmissionReviewCodec {
    /** The only accepted apiVersion. */
    public static final String API_VERSION = "admission.k8s.io/v1";

    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .streamReadConstraints(
                            StreamReadConstraints.builder().maxNestingDepth(200).build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonParser.Feature.ALLOW_COMMENTS);

    private AdmissionReviewCodec() {}

    /** The result of reading a request body. */
    public sealed interface Parsed {
        /** A well-formed review. */
        record Valid(AdmissionRequest request) implements Parsed {}

        /** Not a usable review; the message says why. */
        record Invalid(String message) implements Parsed {}
    }

    /** Reads a request body. */
    public static Parsed parse(byte[] body) {
        if (body.length == 0) {
            return new Parsed.Invalid("empty body");
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return new Parsed.Invalid("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            return new Parsed.Invalid("unreadable body: " + e.getMessage());
        }
        try {
            return new Parsed.Valid(request(root));
        } catch (IllegalArgumentException e) {
            return new Parsed.Invalid(e.getMessage());
        }
    }

    private static AdmissionRequest request(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("body is not a JSON object");
        }
        requireEquals(root, "apiVersion", API_VERSION);
        requireEquals(root, "kind", "AdmissionReview");
        JsonNode request = object(root, "request");
        String uid = text(request, "uid");
        if (uid.isEmpty()) {
            throw new IllegalArgumentException("request.uid is empty");
        }
        String kind = text(object(request, "kind"), "kind");
        String operation = text(request, "operation");
        JsonNode userInfo = object(request, "userInfo");
        List<String> groups = new ArrayList<>();
        JsonNode groupNode = userInfo.get("groups");
        if (groupNode != null && !groupNode.isNull()) {
            if (!groupNode.isArray()) {
                throw new IllegalArgumentException("request.userInfo.groups is not a list");
            }
            for (JsonNode group : groupNode) {
                if (!group.isTextual()) {
                    throw new IllegalArgumentException("request.userInfo.groups holds a non-string");
                }
                groups.add(group.asText());
            }
        }
        UserInfo user = new UserInfo(text(userInfo, "username"), groups);
        JsonNode oldObject = null;
        JsonNode object = null;
        if (operation.equals("UPDATE")) {
            oldObject = object(request, "oldObject");
            object = object(request, "object");
            annotations(oldObject);
            annotations(object);
        }
        return new AdmissionRequest(uid, kind, operation, user, oldObject, object);
    }

    /** metadata.annotations of an object (empty when absent); a malformed one is an error. */
    public static Map<String, String> annotations(JsonNode object) {
        JsonNode metadata = object.get("metadata");
        if (metadata == null || metadata.isNull()) {
            return Map.of();
        }
        if (!metadata.isObject()) {
            throw new IllegalArgumentException("metadata is not an object");
        }
        JsonNode annotations = metadata.get("annotations");
        if (annotations == null || annotations.isNull()) {
            return Map.of();
        }
        if (!annotations.isObject()) {
            throw new IllegalArgumentException("metadata.annotations is not an object");
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : annotations.properties()) {
            if (!entry.getValue().isTextual()) {
                throw new IllegalArgumentException("annotation " + entry.getKey() + " is not a string");
            }
            result.put(entry.getKey(), entry.getValue().asText());
        }
        return result;
    }

    /** The response body for a decision. */
    public static byte[] response(String uid, AdmissionDecision decision) {
        ObjectNode root = JSON.createObjectNode();
        root.put("apiVersion", API_VERSION);
        root.put("kind", "AdmissionReview");
        ObjectNode response = root.putObject("response");
        response.put("uid", uid);
        switch (decision) {
            case AdmissionDecision.Allow allow -> response.put("allowed", true);
            case AdmissionDecision.Deny deny -> {
                response.put("allowed", false);
                ObjectNode status = response.putObject("status");
                status.put("code", 403);
                status.put("reason", "Forbidden");
                status.put("message", deny.message());
            }
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void requireEquals(JsonNode node, String field, String expected) {
        String actual = text(node, field);
        if (!actual.equals(expected)) {
            throw new IllegalArgumentException(field + " must be " + expected + ", not " + actual);
        }
    }

    static JsonNode object(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isObject()) {
            throw new IllegalArgumentException((value == null ? "missing object " : "not an object: ") + field);
        }
        return value;
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException((value == null ? "missing string " : "not a string: ") + field);
        }
        return value.asText();
    }
}
