package io.kovn.node.cni;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validates a CNI call (environment + network configuration) by the rules of the CNI specification 1.1 and builds a
 * {@link CniRequest}. Pure: the environment comes in as a map.
 *
 * <p>Checks run in the order libcni's plugin skeleton uses, so a runtime sees the same error a Go plugin would give:
 * environment first (code 4), then decoding (6), version (1), configuration (7, 2).
 */
public final class CniRequestParser {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    // The spec's container id and network name rule: alphanumeric first, then [A-Za-z0-9_.-].
    private static final Pattern ID = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.\\-]*");

    private CniRequestParser() {}

    /** The environment variables each command requires (non-empty), as libcni's skeleton does. */
    static List<String> requiredEnv(CniCommand command) {
        return switch (command) {
            case ADD, CHECK -> List.of("CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_PATH");
            case DEL -> List.of("CNI_CONTAINERID", "CNI_IFNAME", "CNI_PATH");
            case STATUS, GC -> List.of("CNI_PATH");
            case VERSION -> List.of();
        };
    }

    /** The command named by {@code CNI_COMMAND}. */
    public static CniCommand command(Map<String, String> env) throws CniException {
        String name = env.getOrDefault("CNI_COMMAND", "");
        if (name.isEmpty()) {
            throw new CniException(
                    CniException.INVALID_ENVIRONMENT_VARIABLES, "required env variables missing", "[CNI_COMMAND]");
        }
        return CniCommand.parse(name)
                .orElseThrow(() ->
                        new CniException(CniException.INVALID_ENVIRONMENT_VARIABLES, "unknown CNI_COMMAND", name));
    }

    /**
     * The validated request for a command other than VERSION.
     *
     * @param env the CNI_* variables the plugin saw (absent ones missing from the map)
     * @param config the plugin's stdin
     */
    public static CniRequest parse(Map<String, String> env, String config) throws CniException {
        CniCommand command = command(env);
        List<String> missing = requiredEnv(command).stream()
                .filter(k -> env.getOrDefault(k, "").isEmpty())
                .toList();
        if (!missing.isEmpty()) {
            throw new CniException(
                    CniException.INVALID_ENVIRONMENT_VARIABLES,
                    "required env variables missing",
                    "[" + String.join(",", missing) + "]");
        }
        String containerId = env.getOrDefault("CNI_CONTAINERID", "");
        String ifName = env.getOrDefault("CNI_IFNAME", "");
        if (requiredEnv(command).contains("CNI_CONTAINERID")) {
            if (!ID.matcher(containerId).matches()) {
                throw envError("invalid characters in containerID", containerId);
            }
            validateIfName(ifName);
        }
        Map<String, String> args = CniArgs.parse(env.getOrDefault("CNI_ARGS", ""));
        CniConfig cfg = parseConfig(command, config);
        return new CniRequest(
                command, containerId, env.getOrDefault("CNI_NETNS", ""), ifName, pod(command, args, cfg), cfg);
    }

    /**
     * The cniVersion to answer in when the request cannot be fully parsed: the configuration's own version when it
     * names a supported one, else {@link CniVersions#LATEST}.
     */
    public static String versionForErrors(String config) {
        try {
            String v = JSON.readTree(config).path("cniVersion").asText("");
            return CniVersions.isSupported(v) ? v : CniVersions.LATEST;
        } catch (JsonProcessingException | RuntimeException e) {
            return CniVersions.LATEST;
        }
    }

    private static void validateIfName(String ifName) throws CniException {
        String problem = null;
        if (ifName.length() > 15) {
            problem = "interface name is too long (at most 15 characters)";
        } else if (ifName.equals(".") || ifName.equals("..")) {
            problem = "interface name cannot be . or ..";
        } else if (ifName.chars().anyMatch(c -> c == '/' || c == ':' || Character.isWhitespace(c))) {
            problem = "interface name contains / or : or whitespace";
        }
        if (problem != null) {
            throw envError(problem, ifName);
        }
    }

    private static CniConfig parseConfig(CniCommand command, String text) throws CniException {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new CniException(
                    CniException.DECODING_FAILURE, "error unmarshalling network config", e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new CniException(
                    CniException.DECODING_FAILURE,
                    "error unmarshalling network config",
                    "the network configuration must be a JSON object");
        }
        JsonNode v = root.path("cniVersion");
        if (!v.isMissingNode() && !v.isTextual()) {
            throw new CniException(
                    CniException.DECODING_FAILURE,
                    "decoding version from network config",
                    "cniVersion must be a string");
        }
        String version = v.asText("").isEmpty() ? "0.1.0" : v.asText(); // libcni's reading of "absent"
        if (!CniVersions.isSupported(version)) {
            throw new CniException(
                    CniException.INCOMPATIBLE_CNI_VERSION,
                    "incompatible CNI versions",
                    "config is \"" + version + "\", plugin supports " + CniVersions.SUPPORTED);
        }
        String minimum = switch (command) {
            case CHECK -> "0.4.0";
            case STATUS, GC -> "1.1.0";
            default -> "0.3.0";
        };
        if (!CniVersions.atLeast(version, minimum)) {
            throw new CniException(
                    CniException.INCOMPATIBLE_CNI_VERSION,
                    "config version does not allow " + command,
                    command + " needs cniVersion " + minimum + " or later, config is \"" + version + "\"");
        }
        String name = string(root, "name");
        if (name.isEmpty()) {
            throw invalid("missing network name");
        }
        if (!ID.matcher(name).matches()) {
            throw invalid("invalid characters in network name: \"" + name + "\"");
        }
        if (string(root, "type").isEmpty()) {
            throw invalid("missing plugin type");
        }
        if (root.has("ipam") && !root.get("ipam").isNull()) {
            throw new CniException(
                    CniException.UNSUPPORTED_FIELD,
                    "unsupported field: ipam=" + root.get("ipam"),
                    "kovn assigns addresses from the pod's k8s.ovn.org/pod-networks annotation; remove \"ipam\"");
        }
        int mtu = 0;
        JsonNode m = root.get("mtu");
        if (m != null && !m.isNull()) {
            if (!m.canConvertToInt() || !m.isIntegralNumber() || m.asInt() < 68 || m.asInt() > 65535) {
                throw invalid("mtu must be an integer from 68 to 65535, got " + m);
            }
            mtu = m.asInt();
        }
        Optional<CniResult> prev = Optional.empty();
        JsonNode p = root.get("prevResult");
        if (p != null && !p.isNull()) {
            prev = Optional.of(CniResultCodec.decode(p));
        } else if (command == CniCommand.CHECK) {
            throw invalid("CHECK requires prevResult");
        }
        return new CniConfig(
                version,
                name,
                string(root, "type"),
                string(root, "socket"),
                mtu,
                string(root, "podNamespace"),
                prev,
                command == CniCommand.GC ? attachments(root) : List.of());
    }

    private static List<CniConfig.Attachment> attachments(JsonNode root) throws CniException {
        JsonNode a = root.path("cni.dev/valid-attachments");
        List<CniConfig.Attachment> out = new ArrayList<>();
        if (a.isMissingNode() || a.isNull()) {
            // Not "nothing is valid": a GC that deleted every pod on the node for a missing list would
            // be the most destructive reading of a malformed call (CNI spec 1.1: the runtime sends it).
            throw invalid("GC requires cni.dev/valid-attachments (the attachments still in use)");
        }
        if (!a.isArray()) {
            throw invalid("cni.dev/valid-attachments must be an array");
        }
        for (JsonNode e : a) {
            out.add(new CniConfig.Attachment(string(e, "containerID"), string(e, "ifname")));
        }
        return out;
    }

    private static PodRef pod(CniCommand command, Map<String, String> args, CniConfig cfg) throws CniException {
        String name = args.getOrDefault(CniArgs.POD_NAME, "");
        String namespace = args.getOrDefault(CniArgs.POD_NAMESPACE, "");
        if (namespace.isEmpty()) {
            namespace = cfg.podNamespace();
        }
        boolean needed = command == CniCommand.ADD || command == CniCommand.CHECK;
        if (name.isEmpty() || namespace.isEmpty()) {
            if (needed) {
                throw new CniException(
                        CniException.INVALID_ENVIRONMENT_VARIABLES,
                        "CNI_ARGS lacks the pod identity",
                        "K8S_POD_NAMESPACE and K8S_POD_NAME are required (or \"podNamespace\" in the config)");
            }
            return null; // DEL still runs: its state is keyed by container id and interface
        }
        return new PodRef(namespace, name, args.getOrDefault(CniArgs.POD_UID, ""));
    }

    private static String string(JsonNode parent, String field) throws CniException {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            return "";
        }
        if (!n.isTextual()) {
            throw invalid("\"" + field + "\" must be a string");
        }
        return n.asText();
    }

    private static CniException invalid(String msg) {
        return new CniException(CniException.INVALID_NETWORK_CONFIG, msg);
    }

    private static CniException envError(String msg, String value) {
        return new CniException(CniException.INVALID_ENVIRONMENT_VARIABLES, msg, "\"" + value + "\"");
    }
}
