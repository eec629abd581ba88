package io.kovn.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The unpacked OVN 25.03 / OVS 3.5 runtime (installed by {@code scripts/install-ovn-runtime.sh}): wrapper executables
 * in {@code bin/} and schema files.
 *
 * <p>Located by, in order: system property {@code kovn.runtime}, environment {@code KOVN_RUNTIME}, else
 * {@code <repo>/.runtime/ovn} where {@code <repo>} is the nearest folder above the working directory that holds
 * {@code scripts/install-ovn-runtime.sh}.
 *
 * @param root the runtime folder
 */
public record OvnRuntime(Path root) {
    public OvnRuntime {
        Objects.requireNonNull(root, "root");
    }

    /** Finds the runtime, failing with instructions when it is not installed. */
    public static OvnRuntime locate() {
        Path root = RuntimeLocation.resolve(
                "kovn.runtime",
                "KOVN_RUNTIME",
                () -> RuntimeLocation.repoRoot("scripts/install-ovn-runtime.sh", "kovn.runtime", "KOVN_RUNTIME")
                        .resolve(".runtime/ovn"));
        OvnRuntime rt = new OvnRuntime(root);
        if (!Files.isExecutable(rt.bin("ovsdb-server")) || !Files.isRegularFile(rt.nbSchema())) {
            throw new IllegalStateException("OVN runtime not found at " + rt.root()
                    + " (no bin/ovsdb-server or share-ovn/ovn-nb.ovsschema); install it with scripts/install-ovn-runtime.sh"
                    + " or point -Dkovn.runtime / KOVN_RUNTIME at an installed runtime");
        }
        return rt;
    }

    /** A wrapper executable, e.g. {@code bin("ovn-nbctl")}. */
    public Path bin(String tool) {
        return root.resolve("bin").resolve(tool);
    }

    /**
     * {@code ovn-trace --db=<sb>} for the first packet of a new connection: one {@code --ct=new} per
     * connection-tracking action the packet may meet (more than one zone's switch, routers and switch have). ovn-trace
     * answers "est" once its list runs out, and with load balancers on a switch both of its pipelines track
     * (ct_lb_mark), so a single "new" would send the destination's side down the established-connection path; in the
     * data plane a first packet is new to every conntrack zone. Callers append options, the datapath and the microflow.
     */
    public List<String> ovnTraceNewConnection(String sbEndpoint) {
        List<String> argv = new ArrayList<>(List.of(bin("ovn-trace").toString(), "--db=" + sbEndpoint));
        for (int i = 0; i < TRACE_CT_ACTIONS; i++) argv.add("--ct=new");
        return argv;
    }

    private static final int TRACE_CT_ACTIONS = 8;

    /** The bin folder. */
    public Path binDir() {
        return root.resolve("bin");
    }

    /** OVN Northbound schema file. */
    public Path nbSchema() {
        return root.resolve("share-ovn/ovn-nb.ovsschema");
    }

    /** OVN Southbound schema file. */
    public Path sbSchema() {
        return root.resolve("share-ovn/ovn-sb.ovsschema");
    }

    /** Open_vSwitch schema file. */
    public Path vswitchSchema() {
        return root.resolve("share-openvswitch/vswitch.ovsschema");
    }
}
