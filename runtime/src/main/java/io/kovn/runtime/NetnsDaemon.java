package io.kovn.runtime;

import io.kovn.runtime.net.Netns;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One OVS/OVN daemon this JVM started, optionally inside a network namespace, with explicit pidfile, control socket and
 * log file. It is a child of the JVM (never {@code --detach}), stops on {@link #close()} and is killed by a shutdown
 * hook if the JVM exits first.
 */
public final class NetnsDaemon implements AutoCloseable {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            LIVE.forEach(Process::destroy);
                            LIVE.forEach(p -> {
                                try {
                                    if (!p.waitFor(2, TimeUnit.SECONDS)) {
                                        p.destroyForcibly();
                                    }
                                } catch (InterruptedException e) {
                                    p.destroyForcibly();
                                }
                            });
                        },
                        "kovn-daemon-reaper"));
    }

    /**
     * What to start.
     *
     * @param name short name for messages, e.g. {@code ovs-vswitchd}
     * @param argv the daemon's command line (without any namespace prefix)
     * @param netns where to run it
     * @param env extra environment (e.g. OVS_RUNDIR)
     * @param controlSocket the daemon's unixctl socket; its appearance means "ready"
     * @param pidFile the pidfile the daemon writes
     * @param logFile the daemon's log file
     * @param outputFile where stdout/stderr of the process go
     */
    public record Spec(
            String name,
            List<String> argv,
            Netns netns,
            Map<String, String> env,
            Path controlSocket,
            Path pidFile,
            Path logFile,
            Path outputFile) {
        public Spec {
            Objects.requireNonNull(name, "name");
            argv = List.copyOf(argv);
            Objects.requireNonNull(netns, "netns");
            env = Map.copyOf(env);
            Objects.requireNonNull(controlSocket, "controlSocket");
            Objects.requireNonNull(pidFile, "pidFile");
            Objects.requireNonNull(logFile, "logFile");
            Objects.requireNonNull(outputFile, "outputFile");
        }
    }

    private final Spec spec;
    private final Process process;

    private NetnsDaemon(Spec spec, Process process) {
        this.spec = spec;
        this.process = process;
    }

    /**
     * Starts the daemon and waits until its control socket exists.
     *
     * @throws IllegalStateException if it exits or is not ready within {@code readyTimeout}; the message carries the
     *     tail of its log
     */
    public static NetnsDaemon start(Spec spec, Duration readyTimeout) {
        try {
            Files.createDirectories(spec.controlSocket().getParent());
            Files.deleteIfExists(spec.controlSocket());
            ProcessBuilder pb = new ProcessBuilder(spec.netns().command(spec.argv()));
            pb.environment().putAll(spec.env());
            pb.redirectErrorStream(true);
            pb.redirectOutput(ProcessBuilder.Redirect.appendTo(spec.outputFile().toFile()));
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Process p = pb.start();
            LIVE.add(p);
            NetnsDaemon d = new NetnsDaemon(spec, p);
            d.awaitReady(readyTimeout);
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + spec.name(), e);
        }
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(spec.controlSocket())) {
            if (!process.isAlive()) {
                LIVE.remove(process);
                throw new IllegalStateException(
                        spec.name() + " exited with " + process.exitValue() + " before it was ready: " + tail());
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new IllegalStateException(spec.name() + " not ready within " + timeout + ": " + tail());
            }
            try {
                Thread.sleep(5); // a file to appear; no event source for it
            } catch (InterruptedException e) {
                kill();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting " + spec.name(), e);
            }
        }
    }

    /** The last lines of the daemon's log and output, for error messages. */
    public String tail() {
        StringBuilder sb = new StringBuilder();
        for (Path f : List.of(spec.logFile(), spec.outputFile())) {
            try {
                if (Files.exists(f)) {
                    List<String> lines = Files.readAllLines(f);
                    sb.append("\n--- ")
                            .append(f)
                            .append('\n')
                            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
                }
            } catch (IOException | UncheckedIOException e) {
                sb.append("\n(cannot read ")
                        .append(f)
                        .append(": ")
                        .append(e.getMessage())
                        .append(')');
            }
        }
        return sb.toString();
    }

    public Spec spec() {
        return spec;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Stops the daemon: SIGTERM, then SIGKILL after a grace period. Idempotent. */
    public void stop() {
        process.destroy();
        awaitExit(Duration.ofSeconds(5));
    }

    /** SIGKILL: the daemon gets no chance to clean up (crash simulation). Idempotent. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(5));
    }

    private void awaitExit(Duration grace) {
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            if (!process.isAlive()) {
                LIVE.remove(process);
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
