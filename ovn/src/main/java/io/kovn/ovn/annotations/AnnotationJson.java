package io.kovn.ovn.annotations;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Strict JSON reading and compact writing shared by the annotation codecs. */
final class AnnotationJson {
    // Duplicate keys and trailing garbage are errors: an admin's typo must not be half-read.
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonParser.Feature.ALLOW_COMMENTS)
            .build();

    private AnnotationJson() {}

    static JsonNode read(String annotation, String value) {
        if (value == null) {
            throw new AnnotationFormatException(annotation, "annotation is missing");
        }
        if (value.isBlank()) {
            throw new AnnotationFormatException(annotation, "annotation is empty");
        }
        try {
            return MAPPER.readTree(value);
        } catch (JsonProcessingException e) {
            throw new AnnotationFormatException(annotation, "invalid JSON: " + e.getOriginalMessage());
        }
    }

    static String write(Object tree) {
        try {
            return MAPPER.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String text(String annotation, JsonNode node, String where) {
        if (node == null || !node.isTextual()) {
            throw new AnnotationFormatException(annotation, where + " must be a string, got " + describe(node));
        }
        return node.textValue();
    }

    static List<String> strings(String annotation, JsonNode node, String where) {
        if (node == null || !node.isArray()) {
            throw new AnnotationFormatException(
                    annotation, where + " must be a list of strings, got " + describe(node));
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            out.add(text(annotation, node.get(i), where + "[" + i + "]"));
        }
        return out;
    }

    static IpPrefix cidr(String annotation, String text, String where) {
        try {
            return IpPrefix.parse(text);
        } catch (IllegalArgumentException e) {
            throw new AnnotationFormatException(annotation, where + ": " + e.getMessage());
        }
    }

    static InetAddress ip(String annotation, String text, String where) {
        try {
            return IpLiterals.parse(text);
        } catch (IllegalArgumentException e) {
            throw new AnnotationFormatException(annotation, where + ": " + e.getMessage());
        }
    }

    static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return switch (node.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
