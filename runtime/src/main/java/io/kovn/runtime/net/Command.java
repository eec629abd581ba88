package io.kovn.runtime.net;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a short-lived host command to completion, capturing its output. */
public final class Command {
    /** Generous: every command we run is a local netlink or OVSDB call taking milliseconds. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What a finished command produced.
     *
     * @param command the argv
     * @param exitCode exit status (-1 on timeout)
     * @param stdout standard output
     * @param stderr standard error
     */
    public record Result(List<String> command, int exitCode, String stdout, String stderr) {
        public boolean ok() {
            return exitCode == 0;
        }

        /** Returns stdout, or throws {@link CommandFailedException} if the command failed. */
        public String orThrow() {
            if (!ok()) {
                throw new CommandFailedException(command, exitCode, stderr);
            }
            return stdout;
        }
    }

    private Command() {}

    /** Runs argv and returns its stdout; throws {@link CommandFailedException} on failure. */
    public static String run(List<String> argv) {
        return exec(argv, Map.of(), DEFAULT_TIMEOUT).orThrow();
    }

    /** Runs argv and returns its stdout; throws {@link CommandFailedException} on failure. */
    public static String run(String... argv) {
        return run(List.of(argv));
    }

    /** Runs argv with extra environment and a timeout; never throws for a non-zero exit. */
    public static Result exec(List<String> argv, Map<String, String> env, Duration timeout) {
        return exec(argv, env, timeout, null);
    }

    /**
     * Runs argv with extra environment, a timeout and {@code stdin} as its standard input (null for none); never throws
     * for a non-zero exit.
     */
    public static Result exec(List<String> argv, Map<String, String> env, Duration timeout, String stdin) {
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().putAll(env);
        if (stdin == null) {
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        Process p;
        try {
            p = pb.start();
            if (stdin != null) {
                try (var in = p.getOutputStream()) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            return new Result(List.copyOf(argv), -1, "", e.getMessage());
        }
        // Drain both pipes concurrently so a chatty command cannot block on a full pipe.
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new Result(List.copyOf(argv), -1, out.getNow(""), "timed out after " + timeout);
            }
            return new Result(List.copyOf(argv), p.exitValue(), out.join(), err.join());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Result(List.copyOf(argv), -1, "", "interrupted");
        }
    }

    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (in) {
                f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.completeExceptionally(new UncheckedIOException(e));
            }
        });
        return f;
    }
}
