package io.kovn.node.cni;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The plugin ↔ node agent protocol (version 1), one request per unix socket connection:
 *
 * <pre>
 * request  (plugin → agent): {"env":{"CNI_COMMAND":"ADD",...},"config":"&lt;stdin as a JSON string&gt;"}\n
 *                            then the plugin shuts down its write side
 * response (agent → plugin): &lt;exit status in decimal&gt;\n&lt;bytes the plugin prints on stdout&gt;
 *                            then the agent closes the connection
 * </pre>
 *
 * The plugin forwards only the variables named CNI_* that are set. Carrying stdin as a string keeps malformed
 * configurations reportable by the server (code 6) and spares the plugin any JSON parsing beyond finding the
 * {@code socket} field. Pure: no I/O.
 */
public final class CniWire {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CniWire() {}

    /** The default bound on a request frame, in bytes (the plugin bounds stdin to 256 KiB). */
    public static final int MAX_REQUEST_BYTES = 2 * 1024 * 1024;

    /** A decoded request frame: the forwarded environment and the plugin's stdin. */
    public record Frame(Map<String, String> env, String config) {
        public Frame {
            env = Map.copyOf(env);
        }
    }

    /** What the plugin prints ({@code body}) and the status it exits with. */
    public record Response(int exitStatus, String body) {
        /** The bytes on the wire. */
        public byte[] encode() {
            return (exitStatus + "\n" + body).getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * Decodes a request frame (the trailing newline optional).
     *
     * @throws CniException {@link CniException#DECODING_FAILURE} when the frame is not the JSON above
     */
    public static Frame decode(byte[] frame) throws CniException {
        JsonNode root;
        try {
            root = JSON.readTree(frame);
        } catch (IOException e) {
            throw malformed(e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage());
        }
        if (root == null
                || !root.isObject()
                || !root.path("env").isObject()
                || !root.path("config").isTextual()) {
            throw malformed("expected {\"env\":{...},\"config\":\"...\"}");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.get("env").properties()) {
            if (!e.getValue().isTextual()) {
                throw malformed("env values must be strings");
            }
            env.put(e.getKey(), e.getValue().asText());
        }
        return new Frame(env, root.get("config").asText());
    }

    /** Encodes a request frame, as the C plugin does (used by tests and Java callers). */
    public static byte[] encode(Frame frame) {
        var root = JSON.createObjectNode();
        var env = root.putObject("env");
        frame.env().forEach(env::put);
        root.put("config", frame.config());
        return (root + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static CniException malformed(String details) {
        return new CniException(CniException.DECODING_FAILURE, "malformed request from the CNI plugin", details);
    }
}
