package io.kovn.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Calls CNI plugins exactly as a container runtime does (libcni's conflist semantics): ADD and CHECK run the chain in
 * order, each plugin getting the previous result as {@code prevResult}; DEL runs it in reverse with the ADD result as
 * {@code prevResult}. The sandbox's kubelet uses it so that pods are wired by the real, compiled kovn CNI plugin.
 */
public final class CniInvoker {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode conflist;
    private final List<Path> pluginDirs;

    /** A pod's sandbox as CNI sees it. */
    public record Attachment(
            String containerId, Path netns, String ifName, String podNamespace, String podName, String podUid) {
        String cniArgs() {
            return "IgnoreUnknown=1;K8S_POD_NAMESPACE=" + podNamespace + ";K8S_POD_NAME=" + podName
                    + ";K8S_POD_INFRA_CONTAINER_ID=" + containerId + (podUid == null ? "" : ";K8S_POD_UID=" + podUid);
        }
    }

    /** A plugin call that failed: its CNI error code and message (or the process failure). */
    public static final class CniCallException extends Exception {
        private final int code;

        public CniCallException(int code, String message) {
            super(message);
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    public CniInvoker(Path conflistFile, List<Path> pluginDirs) throws IOException {
        this.conflist = (ObjectNode) JSON.readTree(conflistFile.toFile());
        this.pluginDirs = List.copyOf(pluginDirs);
    }

    public JsonNode add(Attachment a) throws CniCallException {
        JsonNode prev = null;
        for (JsonNode plugin : plugins()) {
            prev = call("ADD", plugin, a, prev);
        }
        return prev;
    }

    public void check(Attachment a, JsonNode addResult) throws CniCallException {
        for (JsonNode plugin : plugins()) {
            call("CHECK", plugin, a, addResult);
        }
    }

    public void del(Attachment a, JsonNode addResult) throws CniCallException {
        List<JsonNode> chain = new ArrayList<>(plugins());
        Collections.reverse(chain);
        CniCallException first = null;
        for (JsonNode plugin : chain) {
            try {
                call("DEL", plugin, a, addResult);
            } catch (CniCallException e) {
                // libcni goes on deleting with the remaining plugins; report the first failure.
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }

    private List<JsonNode> plugins() {
        List<JsonNode> out = new ArrayList<>();
        conflist.withArray("plugins").forEach(out::add);
        return out;
    }

    private JsonNode call(String command, JsonNode plugin, Attachment a, JsonNode prevResult) throws CniCallException {
        ObjectNode conf = plugin.deepCopy();
        conf.put("cniVersion", conflist.path("cniVersion").asText("1.1.0"));
        conf.put("name", conflist.path("name").asText());
        if (prevResult != null && !prevResult.isNull()) conf.set("prevResult", prevResult);
        String type = conf.path("type").asText();
        Path binary = pluginDirs.stream()
                .map(d -> d.resolve(type))
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(() -> new CniCallException(1, "CNI plugin '" + type + "' not found in " + pluginDirs));
        ProcessBuilder pb = new ProcessBuilder(binary.toString());
        Map<String, String> env = pb.environment();
        env.put("CNI_COMMAND", command);
        env.put("CNI_CONTAINERID", a.containerId());
        env.put("CNI_NETNS", a.netns().toString());
        env.put("CNI_IFNAME", a.ifName());
        env.put("CNI_ARGS", a.cniArgs());
        env.put(
                "CNI_PATH",
                String.join(":", pluginDirs.stream().map(Path::toString).toList()));
        try {
            Process p = pb.start();
            try (var in = p.getOutputStream()) {
                in.write(JSON.writeValueAsBytes(conf));
            }
            byte[] out = p.getInputStream().readAllBytes();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new CniCallException(1, type + " " + command + " timed out");
            }
            String stdout = new String(out, StandardCharsets.UTF_8).trim();
            if (p.exitValue() != 0) {
                JsonNode e = parseOrNull(stdout);
                int code = e == null ? 1 : e.path("code").asInt(1);
                String msg = e == null
                        ? stdout + err
                        : e.path("msg").asText()
                                + (e.hasNonNull("details")
                                        ? ": " + e.get("details").asText()
                                        : "");
                throw new CniCallException(code, type + " " + command + " failed: " + msg);
            }
            if (stdout.isEmpty()) return prevResult;
            JsonNode result = parseOrNull(stdout);
            if (result == null)
                throw new CniCallException(1, type + " " + command + " printed invalid JSON: " + stdout);
            return result;
        } catch (IOException e) {
            throw new CniCallException(1, type + " " + command + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CniCallException(1, "interrupted");
        }
    }

    private static JsonNode parseOrNull(String s) {
        try {
            return s.isEmpty() ? null : JSON.readTree(s);
        } catch (IOException e) {
            return null;
        }
    }
}
