package io.kovn.sandbox;

/**
 * What sandbox to build.
 *
 * @param nodes number of emulated nodes ({@code node-1} ... {@code node-N})
 * @param prefix prefix of every namespace and link it creates (at most 11 characters), so that
 *     cleanup finds them and two sandboxes (a developer's and a test's) never collide
 * @param underlayCidr node addresses; they exist only inside the node namespaces
 */
public record SandboxConfig(int nodes, String prefix, String underlayCidr) {
    public SandboxConfig {
        if (nodes < 1 || nodes > 250) throw new IllegalArgumentException("nodes must be 1..250: " + nodes);
        if (prefix == null || prefix.length() < 2 || prefix.length() > 11) {
            throw new IllegalArgumentException("prefix must have 2..11 characters: " + prefix);
        }
    }

    /** The sandbox of {@code kovn sandbox up}. */
    public static SandboxConfig defaults(int nodes) {
        return new SandboxConfig(nodes, SandboxLayout.NAME_PREFIX, "10.250.0.0/24");
    }
}
