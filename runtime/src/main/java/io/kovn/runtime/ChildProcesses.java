package io.kovn.runtime;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts daemons as children of the JVM and sees that they die with it: a shutdown hook kills them on an orderly exit;
 * a JVM killed hard (SIGKILL, OOM killer) runs no hook, so every child is also recorded in a ledger
 * ({@code <tmpdir>/kovn-children/<jvm pid>-<jvm start>/<child pid>-<child start>}), and the next JVM that starts a
 * child kills the children of ledgers whose JVM is gone (start times guard against reused pids).
 */
final class ChildProcesses {
    private static final Logger LOG = LoggerFactory.getLogger(ChildProcesses.class);
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    static final Path LEDGER = Path.of(System.getProperty("java.io.tmpdir"), "kovn-children");
    private static final Path MINE = LEDGER.resolve(key(ProcessHandle.current()));

    static {
        int killed = sweep(LEDGER, MINE);
        if (killed > 0) {
            LOG.warn("killed {} processes left by JVMs that died without stopping them ({})", killed, LEDGER);
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            LIVE.forEach(Process::destroyForcibly);
                            deleteTree(MINE);
                        },
                        "kovn-child-reaper"));
    }

    private ChildProcesses() {}

    static Process start(List<String> argv, Map<String, String> env, Path output) {
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            LIVE.add(p);
            Path record = record(MINE, p.toHandle());
            p.onExit().thenRun(() -> {
                LIVE.remove(p);
                deleteQuietly(record);
            });
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + argv.getFirst(), e);
        }
    }

    /** {@code <pid>-<start in epoch milliseconds>}: a process named so that a reused pid is not mistaken for it. */
    static String key(ProcessHandle h) {
        return h.pid() + "-"
                + h.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    }

    /** Records {@code child} in {@code mine}; a ledger that cannot be written only loses the hard-kill cleanup. */
    static Path record(Path mine, ProcessHandle child) {
        Path record = mine.resolve(key(child));
        try {
            Files.createDirectories(mine);
            Files.writeString(record, "");
        } catch (IOException e) {
            LOG.warn("cannot record child {} in {}: {}", child.pid(), mine, e.toString());
        }
        return record;
    }

    /**
     * Kills the recorded children of every JVM in {@code ledger} other than {@code mine} that is no longer running, and
     * removes their ledgers; returns how many were killed.
     */
    static int sweep(Path ledger, Path mine) {
        int killed = 0;
        try (Stream<Path> jvms = Files.list(ledger)) {
            for (Path jvm : jvms.toList()) {
                if (jvm.equals(mine) || running(jvm.getFileName().toString())) continue;
                try (Stream<Path> children = Files.list(jvm)) {
                    for (Path child : children.toList()) {
                        Optional<ProcessHandle> h = live(child.getFileName().toString());
                        if (h.isPresent() && h.get().destroyForcibly()) killed++;
                    }
                } catch (IOException e) {
                    LOG.warn("cannot read {}: {}", jvm, e.toString());
                }
                deleteTree(jvm);
            }
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            LOG.warn("cannot read {}: {}", ledger, e.toString());
        }
        return killed;
    }

    private static boolean running(String key) {
        return live(key).isPresent();
    }

    /** The live process named by {@code key} ({@link #key}), if its pid still belongs to it. */
    private static Optional<ProcessHandle> live(String key) {
        int dash = key.indexOf('-');
        if (dash <= 0) return Optional.empty();
        try {
            long pid = Long.parseLong(key.substring(0, dash));
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> key(h).equals(key));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(ChildProcesses::deleteQuietly);
        } catch (IOException e) {
            // nothing recorded, or already gone
        }
        deleteQuietly(dir);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a later sweep removes it
        }
    }

    /** SIGTERM, then SIGKILL after a grace period; waits for the exit. */
    static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                kill(p);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(p);
        }
        LIVE.remove(p);
    }

    /** SIGKILL; waits for the exit. */
    static void kill(Process p) {
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(p);
    }
}
