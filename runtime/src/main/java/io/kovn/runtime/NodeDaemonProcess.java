package io.kovn.runtime;

import io.kovn.runtime.net.Command;
import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the per-node OVS/OVN daemons have in common: one daemon against the node's conf.db, with pidfile, control socket
 * and log in the node's run directory, driven through its appctl tool.
 */
public abstract sealed class NodeDaemonProcess implements AutoCloseable
        permits OvsVswitchdProcess, OvnControllerProcess {
    private final NetnsDaemon daemon;
    private final Path binDir;
    private final Path runDir;
    private final String appctlTool;
    private final Map<String, String> env;

    NodeDaemonProcess(NetnsDaemon daemon, Path binDir, Path runDir, String appctlTool, Map<String, String> env) {
        this.daemon = daemon;
        this.binDir = binDir;
        this.runDir = runDir;
        this.appctlTool = appctlTool;
        this.env = env;
    }

    /**
     * Starts {@code binDir/name unix:dbSocket} with explicit pidfile, unixctl and log in {@code runDir} (never the
     * defaults under /var/run, which several nodes on one machine would share), and waits for its control socket.
     */
    static NetnsDaemon launch(
            String name,
            Path binDir,
            Path dbSocket,
            Path runDir,
            Netns netns,
            List<String> extraArgs,
            Map<String, String> env) {
        List<String> argv = new ArrayList<>(List.of(
                binDir.resolve(name).toString(),
                "unix:" + dbSocket,
                "--pidfile=" + runDir.resolve(name + ".pid"),
                "--unixctl=" + runDir.resolve(name + ".ctl"),
                "--log-file=" + runDir.resolve(name + ".log")));
        argv.addAll(extraArgs);
        argv.addAll(List.of("--no-chdir", "-vconsole:emer", "-vfile:info"));
        return NetnsDaemon.start(
                new NetnsDaemon.Spec(
                        name,
                        argv,
                        netns,
                        env,
                        runDir.resolve(name + ".ctl"),
                        runDir.resolve(name + ".pid"),
                        runDir.resolve(name + ".log"),
                        runDir.resolve(name + ".out")),
                Duration.ofSeconds(20));
    }

    /** Runs {@code <appctl> -t <ctl> ARGS} against this daemon and returns its output. */
    public String appctl(String... args) {
        List<String> argv = new ArrayList<>(List.of(
                binDir.resolve(appctlTool).toString(), "-t", controlSocket().toString()));
        argv.addAll(List.of(args));
        return Command.exec(argv, env, Command.DEFAULT_TIMEOUT).orThrow();
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

    /** SIGTERM, then SIGKILL after a grace period. Idempotent. */
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
