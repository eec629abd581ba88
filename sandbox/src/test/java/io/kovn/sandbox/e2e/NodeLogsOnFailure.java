package io.kovn.sandbox.e2e;

import io.kovn.sandbox.infra.EmulatedNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * When a test fails, prints the last lines of each emulated node's OVN and OVS logs (ovn-controller, ovn-northd, the
 * databases, ovs-vswitchd) while they still exist: the sandbox removes its folders when it closes, and a failure that
 * shows only in a full CI run can then be read from CI's output. Register it with {@code @RegisterExtension}.
 */
final class NodeLogsOnFailure implements TestWatcher {
    private static final int LINES = 40;

    private final Supplier<SandboxFixture> fixture;

    NodeLogsOnFailure(Supplier<SandboxFixture> fixture) {
        this.fixture = fixture;
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        SandboxFixture sb = fixture.get();
        if (sb == null) {
            return;
        }
        for (EmulatedNode node : sb.sandbox.nodes()) {
            for (Path log : logs(node.folder())) {
                System.out.printf(
                        "---- %s: last %d lines of %s%n",
                        node.name(), LINES, node.folder().relativize(log));
                tail(log).forEach(System.out::println);
            }
        }
    }

    private static List<Path> logs(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    private static List<String> tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.subList(Math.max(0, lines.size() - LINES), lines.size());
        } catch (IOException | UncheckedIOException e) {
            return List.of("(unreadable: " + e.getMessage() + ")");
        }
    }
}
