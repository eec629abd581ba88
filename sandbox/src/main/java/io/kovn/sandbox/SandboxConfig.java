package io.kovn.sandbox;

import java.time.Duration;

/**
 * What sandbox to build.
 *
 * @param nodes number of emulated nodes ({@code node-1} ... {@code node-N})
 * @param prefix prefix of every namespace and link it creates (at most 11 characters), so that
 *     cleanup finds them and two sandboxes (a developer's and a test's) never collide
 * @param underlayCidr node addresses; they exist only inside the node namespaces
 * @param nodeCertificateLifetime the lifetime node agents ask for in their CSRs ({@code expirationSeconds});
 *     the sandbox signer honours it and agents rotate at 80% of it
 */
public record SandboxConfig(int nodes, String prefix, String underlayCidr, Duration nodeCertificateLifetime) {
    /** What {@code kube-controller-manager} would issue for a kubelet-like request: a day. */
    public static final Duration DEFAULT_CERTIFICATE_LIFETIME = Duration.ofHours(24);

    public SandboxConfig {
        if (nodes < 1 || nodes > 250) throw new IllegalArgumentException("nodes must be 1..250: " + nodes);
        if (prefix == null || prefix.length() < 2 || prefix.length() > 11) {
            throw new IllegalArgumentException("prefix must have 2..11 characters: " + prefix);
        }
        // Shorter than this, a rotation (CSR, approval, signing: a second or two) would eat the lifetime.
        if (nodeCertificateLifetime.compareTo(Duration.ofSeconds(20)) < 0) {
            throw new IllegalArgumentException("node certificates must live at least 20 s: " + nodeCertificateLifetime);
        }
    }

    /** A sandbox whose node certificates live a day. */
    public SandboxConfig(int nodes, String prefix, String underlayCidr) {
        this(nodes, prefix, underlayCidr, DEFAULT_CERTIFICATE_LIFETIME);
    }

    /** The sandbox of {@code kovn sandbox up}. */
    public static SandboxConfig defaults(int nodes) {
        return new SandboxConfig(nodes, SandboxLayout.NAME_PREFIX, "10.250.0.0/24");
    }

    /** This configuration with node certificates of another lifetime. */
    public SandboxConfig withNodeCertificateLifetime(Duration lifetime) {
        return new SandboxConfig(nodes, prefix, underlayCidr, lifetime);
    }
}
