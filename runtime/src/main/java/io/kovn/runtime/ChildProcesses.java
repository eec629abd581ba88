package io.kovn.runtime;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Starts daemons as children of the JVM and guarantees they die with it (shutdown hook). */
final class ChildProcesses {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> LIVE.forEach(p -> {
                            p.destroyForcibly();
                        }),
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
            p.onExit().thenRun(() -> LIVE.remove(p));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + argv.getFirst(), e);
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
