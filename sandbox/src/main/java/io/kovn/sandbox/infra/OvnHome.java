package io.kovn.sandbox.infra;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the OVN/OVS runtime is unpacked ({@code bin/}, {@code share-ovn/}, {@code share-openvswitch/}):
 * system property {@code kovn.runtime}, else env {@code KOVN_RUNTIME}, else {@code .runtime/ovn}
 * in the working directory or one of its parents.
 *
 * @param root the runtime folder
 */
public record OvnHome(Path root) {
    /** Finds the runtime or fails with a message that says how to install it. */
    public static OvnHome locate() {
        String prop = System.getProperty("kovn.runtime");
        if (prop != null && !prop.isBlank()) {
            return checked(Path.of(prop));
        }
        String env = System.getenv("KOVN_RUNTIME");
        if (env != null && !env.isBlank()) {
            return checked(Path.of(env));
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve(".runtime/ovn");
            if (Files.isDirectory(candidate.resolve("bin"))) {
                return checked(candidate);
            }
        }
        throw new IllegalStateException("OVN runtime not found: set -Dkovn.runtime or KOVN_RUNTIME, "
                + "or run scripts/install-ovn-runtime.sh");
    }

    private static OvnHome checked(Path root) {
        if (!Files.isExecutable(root.resolve("bin/ovs-vswitchd"))) {
            throw new IllegalStateException("no OVN runtime at " + root + " (bin/ovs-vswitchd missing); "
                    + "run scripts/install-ovn-runtime.sh");
        }
        return new OvnHome(root.toAbsolutePath());
    }

    public Path bin() {
        return root.resolve("bin");
    }

    public Path nbSchema() {
        return root.resolve("share-ovn/ovn-nb.ovsschema");
    }

    public Path sbSchema() {
        return root.resolve("share-ovn/ovn-sb.ovsschema");
    }

    public Path vswitchSchema() {
        return root.resolve("share-openvswitch/vswitch.ovsschema");
    }
}
