package io.kovn.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark's helper program (e.g. {@link BystanderProcess}) in a child JVM, so that its CPU and its garbage stay out
 * of the measured JVM. The child exits when its stdin closes, which the OS does when this JVM dies in any way (SIGKILL
 * included); {@link #stop} closes it first, and a shutdown hook kills whatever is left, so no child outlives the
 * benchmark.
 */
final class ChildJvm {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        // for a child busy in a command, which reads its stdin only between commands: SIGTERM first,
        // so that its own shutdown hooks stop what it started (a bystander's scratch NB server)
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform().name("kovn-bench-children").unstarted(() -> {
                    LIVE.forEach(Process::destroy);
                    for (Process child : LIVE) {
                        try {
                            if (!child.waitFor(5, TimeUnit.SECONDS)) {
                                child.destroyForcibly();
                            }
                        } catch (InterruptedException e) {
                            child.destroyForcibly();
                        }
                    }
                }));
    }

    private ChildJvm() {}

    /**
     * Starts {@code main} with this JVM's java binary and class path. Its stderr is this JVM's; the caller reads its
     * stdout to the end (a full pipe would block the child).
     *
     * @param jvmOptions the child's heap and collector options, e.g. {@code List.of("-Xmx1g")}
     */
    static Process start(List<String> jvmOptions, Class<?> main, String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        // options given for the measured JVM (GC flags, GC logs to a file) are not the child's
        builder.environment().remove("JDK_JAVA_OPTIONS");
        // options of their own, to look inside them (e.g. their GC logs); %c is the child's class
        String childOptions = System.getenv("KOVN_BENCH_CHILD_JAVA_OPTIONS");
        if (childOptions != null) {
            builder.environment().put("JDK_JAVA_OPTIONS", childOptions.replace("%c", main.getSimpleName()));
        }
        Process child = builder.start();
        LIVE.add(child);
        child.onExit().thenRun(() -> LIVE.remove(child));
        return child;
    }

    /** Closes the child's stdin (its signal to stop), then kills it if it has not ended within 10 s. */
    static void stop(Process child) {
        try {
            child.getOutputStream().close();
        } catch (IOException alreadyGone) {
            // the pipe is closed either way
        }
        try {
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LIVE.remove(child);
    }
}
