package io.kovn.runtime;

import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A running {@code ovs-vswitchd} attached to a conf.db, with its own run directory.
 *
 * <p>Several of them run on one machine (one per emulated node), so each gets its own {@code OVS_RUNDIR}: bridges'
 * management sockets ({@code br-int.mgmt}) live there, and the {@link OvnControllerProcess} of the same node must be
 * given the same run directory. There is no OVS kernel module here, so the system datapath is disabled and every bridge
 * must be {@code datapath_type=netdev}.
 */
public final class OvsVswitchdProcess extends NodeDaemonProcess {
    private final Path dbSocket;

    private OvsVswitchdProcess(NetnsDaemon daemon, Path binDir, Path runDir, Path dbSocket) {
        super(daemon, binDir, runDir, "ovs-appctl", env(runDir));
        this.dbSocket = dbSocket;
    }

    /**
     * Starts ovs-vswitchd and waits for its control socket.
     *
     * @param binDir folder holding the {@code ovs-vswitchd} and {@code ovs-appctl} executables
     * @param dbSocket the unix socket of the conf.db ovsdb-server (Open_vSwitch schema)
     * @param runDir this node's OVS run directory (pidfile, ctl, log, bridge mgmt sockets)
     * @param netns where the datapath's ports live (an emulated node's namespace, or root)
     */
    public static OvsVswitchdProcess start(Path binDir, Path dbSocket, Path runDir, Netns netns) {
        NetnsDaemon d =
                launch("ovs-vswitchd", binDir, dbSocket, runDir, netns, List.of("--disable-system"), env(runDir));
        return new OvsVswitchdProcess(d, binDir, runDir, dbSocket);
    }

    /**
     * Starts ovs-vswitchd against a conf.db served by {@code confDb}.
     *
     * @param runtime the OVN/OVS runtime
     * @param confDb an ovsdb-server holding the Open_vSwitch schema
     * @param runDir this node's run directory
     * @param netns the node's namespace
     */
    public static OvsVswitchdProcess start(OvnRuntime runtime, OvsdbServerProcess confDb, Path runDir, Netns netns) {
        return start(runtime.binDir(), confDb.socket(), runDir, netns);
    }

    /** The OVS_* environment that points every default path of OVS tools into {@code runDir}. */
    public static Map<String, String> env(Path runDir) {
        String dir = runDir.toString();
        return Map.of("OVS_RUNDIR", dir, "OVS_LOGDIR", dir, "OVS_DBDIR", dir, "OVS_SYSCONFDIR", dir);
    }

    public Path dbSocket() {
        return dbSocket;
    }
}
