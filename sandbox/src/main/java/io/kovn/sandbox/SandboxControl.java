package io.kovn.sandbox;

import io.kovn.sandbox.infra.Leftovers;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client side of {@code kovn sandbox up|down|status}: starts the sandbox daemon (a JVM of its own, detached with
 * setsid, so the cluster keeps running after the command returns), waits for it to be ready, and stops it again,
 * removing every process, namespace, link and file.
 */
public final class SandboxControl {
    private final SandboxLayout layout;
    private final PrintStream out;
    /**
     * The machine's own sandbox folder and its prefix: the one folder whose prefix is known without its prefix file.
     */
    private final SandboxLayout machineDefault;

    private final String defaultPrefix;

    public SandboxControl(SandboxLayout layout, PrintStream out) {
        this(layout, out, new SandboxLayout(SandboxLayout.DEFAULT_DIR), SandboxLayout.NAME_PREFIX);
    }

    /** With another folder and prefix standing for the machine's default sandbox (tests). */
    SandboxControl(SandboxLayout layout, PrintStream out, SandboxLayout machineDefault, String defaultPrefix) {
        this.layout = layout;
        this.out = out;
        this.machineDefault = machineDefault;
        this.defaultPrefix = defaultPrefix;
    }

    /**
     * The options of this JVM the daemon runs with too: the JIT setting (the launcher's C1, as deployed), the class
     * cache (same class path, so the same cache), where JVM logging goes, and native access and the nice value for the
     * controllers' large OVSDB messages (docs/ovsdb.md).
     */
    static List<String> daemonJvmOptions(List<String> inputArguments) {
        return inputArguments.stream()
                .filter(a -> a.startsWith("-XX:TieredStopAtLevel=")
                        || a.startsWith("-XX:AOTCache=")
                        || a.startsWith("-Xlog:")
                        || a.startsWith("--enable-native-access=")
                        || a.startsWith("-Dkovn.ovsdb.largeMessageNice="))
                .toList();
    }

    /** The running daemon, if any. */
    public Optional<ProcessHandle> daemon() {
        try {
            if (!Files.exists(layout.pidFile())) return Optional.empty();
            long pid = Long.parseLong(Files.readString(layout.pidFile()).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Starts the daemon and returns when the cluster is ready; throws with the daemon's reason if it failed. */
    public void up(int nodes, Duration timeout) throws IOException, InterruptedException {
        up(SandboxConfig.defaults(nodes), timeout);
    }

    /** Starts a daemon running a sandbox of this configuration (tests use their own prefix). */
    public void up(SandboxConfig config, Duration timeout) throws IOException, InterruptedException {
        int nodes = config.nodes();
        if (daemon().isPresent()) {
            out.println("sandbox already running (" + summary() + "); `kovn sandbox down` first to recreate it");
            return;
        }
        // Leftovers of a crashed run in this folder: cleaned by that run's prefix, else by ours.
        if (!Files.exists(layout.prefixFile())) {
            Files.createDirectories(layout.dir());
            Files.writeString(layout.prefixFile(), config.prefix());
        }
        down(false);
        Files.createDirectories(layout.dir());
        // java.home's launcher, not this process's command: a JDK run through its own loader would name the loader
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of("setsid", java, "-Xmx1g", "-XX:+UseSerialGC"));
        cmd.addAll(daemonJvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        cmd.addAll(List.of(
                "-Dkovn.runtime=" + System.getProperty("kovn.runtime", ""),
                "-Dkovn.root=" + System.getProperty("kovn.root", ""),
                "-Dkovn.log.level=INFO",
                "-cp",
                System.getProperty("java.class.path"),
                SandboxDaemon.class.getName(),
                "--dir",
                layout.dir().toString(),
                "--nodes",
                Integer.toString(nodes),
                "--prefix",
                config.prefix(),
                "--underlay",
                config.underlayCidr(),
                "--node-cert-lifetime",
                Long.toString(config.nodeCertificateLifetime().toSeconds()),
                "--node-cert-rotation",
                Double.toString(config.nodeCertificateRotation()),
                "--ip-families",
                config.dualStack() ? "ipv4,ipv6" : "ipv4"));
        Instant start = Instant.now();
        new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(layout.logFile().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        out.println("starting a " + nodes + "-node sandbox (log: " + layout.logFile() + ")");
        Instant deadline = start.plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (Files.exists(layout.readyFile())) {
                out.printf(
                        "sandbox ready in %.1f s: %s%n",
                        Duration.between(start, Instant.now()).toMillis() / 1000.0, summary());
                return;
            }
            if (Files.exists(layout.failedFile())) {
                String why = Files.readString(layout.failedFile()).trim();
                down(false);
                throw new IOException("sandbox failed to start: " + why);
            }
            Thread.sleep(200);
        }
        down(false);
        throw new IOException("sandbox not ready within " + timeout.toSeconds() + " s; see " + layout.logFile());
    }

    /** Stops the daemon (SIGTERM, then SIGKILL) and removes everything the sandbox made. */
    public void down(boolean verbose) throws IOException, InterruptedException {
        Optional<ProcessHandle> d = daemon();
        if (d.isPresent()) {
            ProcessHandle h = d.get();
            h.destroy();
            try {
                h.onExit().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                h.descendants().forEach(ProcessHandle::destroyForcibly);
                h.destroyForcibly();
            }
        }
        Optional<String> prefix = prefix();
        // no prefix known: only what the folder records is this sandbox's, not every namespace named like a sandbox's
        Leftovers.Report left = prefix.isPresent()
                ? Leftovers.cleanup(prefix.get(), layout.dir())
                : Leftovers.cleanupFolder(layout.dir());
        if (verbose) {
            if (d.isEmpty() && left.nothingFound()) {
                out.println("no sandbox running");
            } else {
                out.println("sandbox down"
                        + (left.nothingFound()
                                ? ""
                                : "; removed leftovers: " + left.killedPids().size() + " process(es), namespaces "
                                        + left.namespaces() + ", links " + left.links()));
            }
        }
    }

    /**
     * The names this sandbox's namespaces and links start with: its prefix file's, written before the daemon makes
     * anything. Without one, only the machine's default folder has a known prefix (the default one: `kovn sandbox down`
     * still cleans up after a default sandbox whose folder was lost); any other folder without one (gone, or never
     * used) has none, so that its `down` cannot remove another sandbox's namespaces, e.g. a test's second `down` those
     * of the developer's own sandbox.
     */
    private Optional<String> prefix() {
        try {
            if (Files.exists(layout.prefixFile())) {
                return Optional.of(Files.readString(layout.prefixFile()).trim());
            }
        } catch (IOException unreadable) {
            // as if absent
        }
        return layout.dir()
                        .toAbsolutePath()
                        .normalize()
                        .equals(machineDefault.dir().toAbsolutePath().normalize())
                ? Optional.of(defaultPrefix)
                : Optional.empty();
    }

    public String summary() {
        try {
            return Files.exists(layout.readyFile())
                    ? Files.readString(layout.readyFile()).trim()
                    : "starting";
        } catch (IOException e) {
            return "unknown";
        }
    }
}
