package io.kovn.sandbox.e2e;

import io.kovn.sandbox.infra.Leftovers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Claims of the test sandboxes alive on this machine: one file per fixture, naming the test JVM and the sandbox's state
 * folder. A test run killed from outside (no close, no shutdown hook) leaves its namespaces, links and processes
 * behind; the next fixture to start finds its claim, sees the JVM gone, and removes what carries that prefix.
 */
final class StaleSandboxes {
    static final Path CLAIMS = Path.of("/tmp/kovn-e2e-claims");

    private StaleSandboxes() {}

    /** Records that this JVM owns {@code prefix} (its namespaces and links) and {@code dir}. */
    static void claim(String prefix, Path dir) {
        try {
            Files.createDirectories(CLAIMS);
            Files.writeString(CLAIMS.resolve(prefix), ProcessHandle.current().pid() + " " + dir.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the sandbox claim " + prefix, e);
        }
    }

    static void release(String prefix) {
        try {
            Files.deleteIfExists(CLAIMS.resolve(prefix));
        } catch (IOException e) {
            // a stale claim of a live prefix is harmless: its JVM's pid is checked before any sweep
        }
    }

    /** A claim's state folder, if it is one a fixture makes ({@code /tmp/kve*}): nothing else is deleted. */
    private static Path stateFolder(String recorded) {
        Path dir = Path.of(recorded).normalize();
        return dir.getParent() != null
                        && dir.getParent().equals(Path.of("/tmp"))
                        && dir.getFileName().toString().startsWith("kve")
                ? dir
                : null;
    }

    /** Cleans up after every claim whose JVM no longer runs; returns the prefixes cleaned. */
    static List<String> sweep() {
        if (!Files.isDirectory(CLAIMS)) {
            return List.of();
        }
        List<String> cleaned = new ArrayList<>();
        try (Stream<Path> claims = Files.list(CLAIMS)) {
            for (Path claim : claims.toList()) {
                String prefix = claim.getFileName().toString();
                String[] owner;
                try {
                    owner = Files.readString(claim).strip().split(" ", 2);
                } catch (IOException e) {
                    continue;
                }
                boolean alive = owner.length == 2
                        && owner[0].matches("\\d+")
                        && ProcessHandle.of(Long.parseLong(owner[0]))
                                .map(ProcessHandle::isAlive)
                                .orElse(false);
                if (!alive && prefix.startsWith("kve")) {
                    Leftovers.cleanup(prefix, owner.length == 2 ? stateFolder(owner[1]) : null);
                    release(prefix);
                    cleaned.add(prefix);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sandbox claims in " + CLAIMS, e);
        }
        return cleaned;
    }
}
