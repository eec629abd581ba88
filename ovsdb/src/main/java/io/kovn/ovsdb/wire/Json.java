package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** The library's one Jackson mapper and small JSON helpers. */
public final class Json {
    /** Thread-safe once configured; shared. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Json() {}

    public static ObjectNode object() {
        return F.objectNode();
    }

    public static ArrayNode array() {
        return F.arrayNode();
    }

    /** Parses one JSON text; malformed input becomes a {@link ProtocolException}. */
    public static JsonNode parse(byte[] bytes) {
        try {
            return MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new ProtocolException("malformed JSON: " + e.getMessage(), e);
        }
    }

    /** Parses one JSON text; malformed input becomes a {@link ProtocolException}. */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new ProtocolException("malformed JSON: " + e.getMessage(), e);
        }
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String text(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
