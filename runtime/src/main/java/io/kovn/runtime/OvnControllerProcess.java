package io.kovn.runtime;

import io.kovn.runtime.net.Command;
import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A running {@code ovn-controller} for one chassis. It reads its SB address, system-id and encap
 * settings from the conf.db external_ids, and reaches its bridge through
 * {@code $OVS_RUNDIR/br-int.mgmt}, so it must share the run directory of its node's
 * {@link OvsVswitchdProcess}.
 */
public final class OvnControllerProcess implements AutoCloseable {
    private final NetnsDaemon daemon;
    private final Path binDir;
    private final Path runDir;

    private OvnControllerProcess(NetnsDaemon daemon, Path binDir, Path runDir) {
        this.daemon = daemon;
        this.binDir = binDir;
        this.runDir = runDir;
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
        List<String> argv = List.of(
                binDir.resolve("ovn-controller").toString(),
                "unix:" + dbSocket,
                "--pidfile=" + runDir.resolve("ovn-controller.pid"),
                "--unixctl=" + runDir.resolve("ovn-controller.ctl"),
                "--log-file=" + runDir.resolve("ovn-controller.log"),
                "--no-chdir",
                "-vconsole:emer",
                "-vfile:info");
        NetnsDaemon d = NetnsDaemon.start(new NetnsDaemon.Spec("ovn-controller", argv, netns, env(runDir),
                runDir.resolve("ovn-controller.ctl"), runDir.resolve("ovn-controller.pid"),
                runDir.resolve("ovn-controller.log"), runDir.resolve("ovn-controller.out")), Duration.ofSeconds(20));
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

    /** Runs {@code ovn-appctl -t <ctl> ARGS} against this daemon and returns its output. */
    public String appctl(String... args) {
        List<String> argv = new ArrayList<>(List.of(binDir.resolve("ovn-appctl").toString(),
                "-t", controlSocket().toString()));
        argv.addAll(List.of(args));
        return Command.exec(argv, env(runDir), Command.DEFAULT_TIMEOUT).orThrow();
    }

    public Path controlSocket() {
        return daemon.spec().controlSocket();
    }

    public Path runDir() {
        return runDir;
    }

    public Path logFile() {
        return daemon.spec().logFile();
    }

    public long pid() {
        return daemon.pid();
    }

    public boolean isAlive() {
        return daemon.isAlive();
    }

    /** SIGTERM (ovn-controller leaves its Chassis in the SB), then SIGKILL after a grace period. */
    public void stop() {
        daemon.stop();
    }

    /** SIGKILL. Idempotent. */
    public void kill() {
        daemon.kill();
    }

    @Override
    public void close() {
        stop();
    }
}
