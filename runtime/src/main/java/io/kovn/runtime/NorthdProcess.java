package io.kovn.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A real {@code ovn-northd} translating one NB database into one SB database. A child of the JVM. */
public final class NorthdProcess implements AutoCloseable {
    private final Process process;
    private final Path dir;

    private NorthdProcess(Process process, Path dir) {
        this.process = process;
        this.dir = dir;
    }

    /**
     * Starts ovn-northd with its pidfile, unixctl socket and log in {@code dir}.
     *
     * @param nbEndpoint e.g. {@code unix:/tmp/x/nb.sock}
     * @param sbEndpoint e.g. {@code unix:/tmp/x/sb.sock}
     */
    public static NorthdProcess start(OvnRuntime runtime, String nbEndpoint, String sbEndpoint, Path dir) {
        List<String> argv = List.of(
                runtime.bin("ovn-northd").toString(),
                "--ovnnb-db=" + nbEndpoint,
                "--ovnsb-db=" + sbEndpoint,
                "--pidfile=" + dir.resolve("ovn-northd.pid"),
                "--unixctl=" + dir.resolve("ovn-northd.ctl"),
                "--log-file=" + dir.resolve("ovn-northd.log"),
                "--no-chdir",
                "-vconsole:off",
                "-vfile:info");
        Process p = ChildProcesses.start(
                argv,
                Map.of("OVN_RUNDIR", dir.toString(), "OVN_LOGDIR", dir.toString(), "OVS_RUNDIR", dir.toString()),
                dir.resolve("ovn-northd.out"));
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!Files.exists(dir.resolve("ovn-northd.ctl"))) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                ChildProcesses.kill(p);
                throw new IllegalStateException("ovn-northd did not start; see " + dir.resolve("ovn-northd.log"));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ChildProcesses.kill(p);
                throw new IllegalStateException("interrupted", e);
            }
        }
        return new NorthdProcess(p, dir);
    }

    /** The unixctl socket (for {@code ovn-appctl -t}). */
    public Path controlSocket() {
        return dir.resolve("ovn-northd.ctl");
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
