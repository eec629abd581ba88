package io.kovn.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code kovn node --no-node-agent} (the zone and policy controllers) in a child JVM of this class path, to be killed
 * with SIGKILL and started again on the same databases: the fault programs' controller process. Its output is appended
 * to a log file across restarts.
 */
final class NodeChild implements AutoCloseable {
    private final List<String> command;
    private final Path log;
    private Process process;

    NodeChild(String zone, Path kubeconfig, String nb, String sb, Path log) {
        this.log = log;
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        command = new ArrayList<>(List.of(
                java,
                "-Xmx384m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xshare:auto",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "io.kovn.cli.Main",
                "node",
                "--node-name=" + zone,
                "--kubeconfig=" + kubeconfig,
                "--nb=" + nb,
                "--sb=" + sb,
                "--no-node-agent",
                "--metrics-address=127.0.0.1:0"));
    }

    /** Starts the process (it must not be running). */
    synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running: " + process.pid());
        }
        ProcessBuilder b = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        b.environment().remove("JDK_JAVA_OPTIONS");
        process = b.start();
    }

    /** SIGKILL, and waits until the process is gone: no shutdown hook, no last write. */
    synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly(); // SIGKILL on Linux
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("pid " + process.pid() + " survived SIGKILL");
            }
        }
    }

    synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    Path log() {
        return log;
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
