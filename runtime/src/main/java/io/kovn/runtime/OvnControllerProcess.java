package io.kovn.runtime;

import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A running {@code ovn-controller} for one chassis. It reads its SB address, system-id and encap settings from the
 * conf.db external_ids, and reaches its bridge through {@code $OVS_RUNDIR/br-int.mgmt}, so it must share the run
 * directory of its node's {@link OvsVswitchdProcess}.
 */
public final class OvnControllerProcess extends NodeDaemonProcess {
    private OvnControllerProcess(NetnsDaemon daemon, Path binDir, Path runDir) {
        super(daemon, binDir, runDir, "ovn-appctl", env(runDir));
    }

    /**
     * Starts ovn-controller and waits for its control socket.
     *
     * @param binDir folder holding {@code ovn-controller} and {@code ovn-appctl}
     * @param dbSocket the node's conf.db unix socket
     * @param runDir the node's run directory, the same one its ovs-vswitchd uses
     * @param netns the node's namespace (tunnels are set up from there)
     */
    public static OvnControllerProcess start(Path binDir, Path dbSocket, Path runDir, Netns netns) {
        NetnsDaemon d = launch("ovn-controller", binDir, dbSocket, runDir, netns, List.of(), env(runDir));
        return new OvnControllerProcess(d, binDir, runDir);
    }

    /**
     * Starts ovn-controller against a conf.db served by {@code confDb}.
     *
     * @param runtime the OVN/OVS runtime
     * @param confDb an ovsdb-server holding the Open_vSwitch schema
     * @param runDir this node's run directory
     * @param netns the node's namespace
     */
    public static OvnControllerProcess start(OvnRuntime runtime, OvsdbServerProcess confDb, Path runDir, Netns netns) {
        return start(runtime.binDir(), confDb.socket(), runDir, netns);
    }

    /** OVS_* and OVN_* defaults pointing into {@code runDir}. */
    public static Map<String, String> env(Path runDir) {
        Map<String, String> env = new HashMap<>(OvsVswitchdProcess.env(runDir));
        env.put("OVN_RUNDIR", runDir.toString());
        env.put("OVN_LOGDIR", runDir.toString());
        env.put("OVN_DBDIR", runDir.toString());
        env.put("OVN_SYSCONFDIR", runDir.toString());
        return Map.copyOf(env);
    }
}
