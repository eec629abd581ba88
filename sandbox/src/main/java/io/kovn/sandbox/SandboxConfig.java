package io.kovn.sandbox;

import io.kovn.ovn.annotations.IpPrefix;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What sandbox to build.
 *
 * @param nodes number of emulated nodes ({@code node-1} ... {@code node-N})
 * @param prefix prefix of every namespace and link it creates (at most 11 characters), so that cleanup finds them and
 *     two sandboxes (a developer's and a test's) never collide
 * @param underlayCidr node addresses; they exist only inside the node namespaces
 * @param nodeCertificateLifetime the lifetime node agents ask for in their CSRs ({@code expirationSeconds});
 *     kube-controller-manager honours it from 10 minutes up (and back-dates certificates by 5 minutes)
 * @param nodeCertificateRotation the fraction of a certificate's validity after which agents rotate (0.8)
 * @param dualStack IPv6 beside IPv4: node addresses on the underlay ({@link #underlayCidrV6()}), pod subnets from
 *     {@code fd00:10:244::/48} (a /64 per node), services may take IPv6 cluster IPs; geneve still runs over IPv4
 */
public record SandboxConfig(
        int nodes,
        String prefix,
        String underlayCidr,
        Duration nodeCertificateLifetime,
        double nodeCertificateRotation,
        boolean dualStack) {
    /** What {@code kube-controller-manager} would issue for a kubelet-like request: a day. */
    public static final Duration DEFAULT_CERTIFICATE_LIFETIME = Duration.ofHours(24);

    public SandboxConfig {
        if (nodes < 1 || nodes > 250) throw new IllegalArgumentException("nodes must be 1..250: " + nodes);
        if (prefix == null || prefix.length() < 2 || prefix.length() > 11) {
            throw new IllegalArgumentException("prefix must have 2..11 characters: " + prefix);
        }
        // kube-controller-manager's signer issues nothing shorter (it raises shorter requests to this).
        if (nodeCertificateLifetime.compareTo(MIN_CERTIFICATE_LIFETIME) < 0) {
            throw new IllegalArgumentException(
                    "node certificates must live at least 10 minutes: " + nodeCertificateLifetime);
        }
        if (nodeCertificateRotation <= 0 || nodeCertificateRotation >= 1) {
            throw new IllegalArgumentException(
                    "node certificate rotation must be a fraction between 0 and 1: " + nodeCertificateRotation);
        }
    }

    /** The shortest lifetime kube-controller-manager's signer issues. */
    public static final Duration MIN_CERTIFICATE_LIFETIME = Duration.ofMinutes(10);

    /** A single-stack (IPv4) sandbox. */
    public SandboxConfig(
            int nodes,
            String prefix,
            String underlayCidr,
            Duration nodeCertificateLifetime,
            double nodeCertificateRotation) {
        this(nodes, prefix, underlayCidr, nodeCertificateLifetime, nodeCertificateRotation, false);
    }

    /** This configuration with IPv6 beside IPv4, or IPv4 alone. */
    public SandboxConfig withDualStack(boolean dual) {
        return new SandboxConfig(nodes, prefix, underlayCidr, nodeCertificateLifetime, nodeCertificateRotation, dual);
    }

    /**
     * The {@code --ip-families} option: {@code ipv4} or {@code ipv4,ipv6} (either order); true for dual stack.
     *
     * @throws IllegalArgumentException for anything else (IPv6 alone is not offered: geneve runs over IPv4)
     */
    public static boolean parseIpFamilies(String text) {
        Set<String> families =
                new TreeSet<>(Arrays.stream(text.toLowerCase(Locale.ROOT).split(","))
                        .map(String::strip)
                        .filter(f -> !f.isEmpty())
                        .toList());
        if (families.equals(Set.of("ipv4"))) return false;
        if (families.equals(Set.of("ipv4", "ipv6"))) return true;
        throw new IllegalArgumentException("--ip-families takes ipv4 or ipv4,ipv6 (geneve runs over IPv4): " + text);
    }

    /**
     * The underlay's IPv6 range in a dual-stack sandbox: a unique-local /64 derived from the IPv4 range
     * ({@code 10.250.0.0/24} → {@code fd00:afa:0::/64}), so two sandboxes never share one.
     */
    public String underlayCidrV6() {
        byte[] o = IpPrefix.parse(underlayCidr).address().getAddress();
        int a = o[0] & 0xff;
        int b = o[1] & 0xff;
        int c = o[2] & 0xff;
        return "fd00:" + Integer.toHexString(a * 256 + b) + ":" + Integer.toHexString(c) + "::/64";
    }

    /** A sandbox whose node agents rotate at 80% of their certificates' validity. */
    public SandboxConfig(int nodes, String prefix, String underlayCidr, Duration nodeCertificateLifetime) {
        this(nodes, prefix, underlayCidr, nodeCertificateLifetime, 0.8);
    }

    /** A sandbox whose node certificates live a day. */
    public SandboxConfig(int nodes, String prefix, String underlayCidr) {
        this(nodes, prefix, underlayCidr, DEFAULT_CERTIFICATE_LIFETIME);
    }

    /** The sandbox of {@code kovn sandbox up}. */
    public static SandboxConfig defaults(int nodes) {
        return new SandboxConfig(nodes, SandboxLayout.NAME_PREFIX, "10.250.0.0/24");
    }

    /** This configuration with node agents rotating at another fraction of their certificates' validity. */
    public SandboxConfig withNodeCertificateRotation(double rotation) {
        return new SandboxConfig(nodes, prefix, underlayCidr, nodeCertificateLifetime, rotation, dualStack);
    }

    /** This configuration with node certificates of another lifetime. */
    public SandboxConfig withNodeCertificateLifetime(Duration lifetime) {
        return new SandboxConfig(nodes, prefix, underlayCidr, lifetime, nodeCertificateRotation, dualStack);
    }
}
