package io.kovn.cni;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Executes a CNI plugin the way a container runtime does: a clean environment, config on stdin. */
final class PluginProcess {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The kovn-cni binary the Maven build compiled. */
    static final Path KOVN_CNI =
            Path.of(System.getProperty("kovn.cni.plugin", "target/kovn-cni")).toAbsolutePath();

    private PluginProcess() {}

    /** What the plugin printed and its exit status. */
    record Outcome(int exitStatus, String stdout, String stderr) {
        JsonNode json() {
            try {
                return JSON.readTree(stdout);
            } catch (IOException e) {
                throw new AssertionError("stdout is not JSON: " + stdout + " (stderr: " + stderr + ")", e);
            }
        }
    }

    /** Runs {@code executable} with exactly {@code env} and {@code stdin}; fails after 20 s. */
    static Outcome run(Path executable, Map<String, String> env, byte[] stdin) {
        return run(List.of(executable.toString()), env, stdin);
    }

    /**
     * Runs {@code command} (an executable and its arguments, e.g. behind setpriv) as {@link #run(Path, Map, byte[])}.
     */
    static Outcome run(List<String> command, Map<String, String> env, byte[] stdin) {
        String executable = command.getLast();
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().clear();
            pb.environment().putAll(env);
            Process p = pb.start();
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            try (var in = p.getOutputStream()) {
                in.write(stdin);
            } catch (IOException e) {
                // the plugin may exit before reading everything (oversized input): that is its answer
            }
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(executable + " did not finish within 20 s");
            }
            return new Outcome(
                    p.exitValue(),
                    new String(out.join(), StandardCharsets.UTF_8),
                    new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Outcome run(Path executable, Map<String, String> env, String stdin) {
        return run(executable, env, stdin.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
