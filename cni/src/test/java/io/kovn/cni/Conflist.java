package io.kovn.cni;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@code .conflist} with libcni's semantics: each plugin gets the list's name and cniVersion; ADD runs in order,
 * each plugin receiving the previous one's result as {@code prevResult}; CHECK runs in order and DEL in reverse, each
 * with the cached final ADD result as {@code prevResult}.
 */
final class Conflist {
    private final ObjectNode list;
    private final List<Path> cniPath;

    /** A runtime's view of one container attachment. */
    record Attachment(String containerId, String netns, String ifName, String cniArgs) {}

    Conflist(ObjectNode list, List<Path> cniPath) {
        this.list = list;
        this.cniPath = cniPath;
    }

    /** Runs ADD through the chain; returns the failing plugin's outcome or the last one's. */
    PluginProcess.Outcome add(Attachment a) {
        JsonNode prev = null;
        PluginProcess.Outcome out = null;
        for (JsonNode plugin : list.get("plugins")) {
            out = exec("ADD", a, plugin, prev);
            if (out.exitStatus() != 0) {
                return out;
            }
            prev = out.json();
        }
        return out;
    }

    /** Runs CHECK through the chain with {@code cached} as every plugin's prevResult. */
    List<PluginProcess.Outcome> check(Attachment a, JsonNode cached) {
        List<PluginProcess.Outcome> outs = new ArrayList<>();
        for (JsonNode plugin : list.get("plugins")) {
            outs.add(exec("CHECK", a, plugin, cached));
        }
        return outs;
    }

    /** Runs DEL through the chain in reverse with {@code cached} as prevResult (may be null). */
    List<PluginProcess.Outcome> del(Attachment a, JsonNode cached) {
        List<JsonNode> plugins = new ArrayList<>();
        list.get("plugins").forEach(plugins::add);
        List<PluginProcess.Outcome> outs = new ArrayList<>();
        for (JsonNode plugin : plugins.reversed()) {
            outs.add(exec("DEL", a, plugin, cached));
        }
        return outs;
    }

    private PluginProcess.Outcome exec(String command, Attachment a, JsonNode plugin, JsonNode prev) {
        ObjectNode conf = plugin.deepCopy();
        conf.set("name", list.get("name"));
        conf.set("cniVersion", list.get("cniVersion"));
        if (prev != null) {
            conf.set("prevResult", prev);
        }
        Map<String, String> env = new HashMap<>();
        env.put("CNI_COMMAND", command);
        env.put("CNI_CONTAINERID", a.containerId());
        env.put("CNI_NETNS", a.netns());
        env.put("CNI_IFNAME", a.ifName());
        env.put("CNI_ARGS", a.cniArgs());
        env.put(
                "CNI_PATH",
                String.join(":", cniPath.stream().map(Path::toString).toList()));
        return PluginProcess.run(find(plugin.get("type").asText()), env, conf.toString());
    }

    private Path find(String type) {
        return cniPath.stream()
                .map(d -> d.resolve(type))
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no plugin " + type + " in " + cniPath));
    }

    /** Runs a command and returns its stdout; fails on a non-zero exit. */
    static String sh(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
