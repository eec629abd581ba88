package io.kovn.node.cni;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The parts of the network configuration (the plugin's stdin) that kovn reads.
 *
 * <pre>{@code
 * {"cniVersion": "1.1.0", "name": "kovn", "type": "kovn-cni",
 *  "socket": "/run/kovn/cni.sock", "mtu": 1400, "podNamespace": "podman"}
 * }</pre>
 *
 * @param cniVersion the spec version the runtime speaks; results are encoded in it
 * @param name the network name
 * @param type the plugin type (the executable's name)
 * @param socket the node agent's socket the plugin used (informational on the server)
 * @param mtu the pod interface MTU asked for, or 0 for the node agent's default
 * @param podNamespace namespace for callers that pass only K8S_POD_NAME (podman), or ""
 * @param prevResult the result of the previous plugin in the chain / of the previous ADD
 * @param validAttachments GC only: the attachments the runtime still uses
 */
public record CniConfig(
        String cniVersion,
        String name,
        String type,
        String socket,
        int mtu,
        String podNamespace,
        Optional<CniResult> prevResult,
        List<Attachment> validAttachments) {
    public CniConfig {
        Objects.requireNonNull(cniVersion, "cniVersion");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        socket = socket == null ? "" : socket;
        podNamespace = podNamespace == null ? "" : podNamespace;
        Objects.requireNonNull(prevResult, "prevResult");
        validAttachments = List.copyOf(validAttachments);
    }

    /** The default node agent socket path. */
    public static final String DEFAULT_SOCKET = "/run/kovn/cni.sock";

    /** One entry of GC's {@code cni.dev/valid-attachments}. */
    public record Attachment(String containerId, String ifName) {}
}
