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
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * When a test fails, attaches the last lines of each emulated node's OVN and OVS logs (ovn-controller, ovn-northd, the
 * databases, ovs-vswitchd) to its failure, as a suppressed exception, while they still exist: the sandbox removes its
 * folders when it closes, and surefire sends a test's own output to a report file, but prints a failure's trace in the
 * build output. A failure that shows only in a full CI run can then be read from CI's output. Register it with
 * {@code @RegisterExtension}.
 */
final class NodeLogsOnFailure implements TestExecutionExceptionHandler {
    private static final int LINES = 40;

    private final Supplier<SandboxFixture> fixture;

    NodeLogsOnFailure(Supplier<SandboxFixture> fixture) {
        this.fixture = fixture;
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        SandboxFixture sb = fixture.get();
        if (sb != null) {
            StringBuilder tails = new StringBuilder("the emulated nodes' OVN and OVS logs, last " + LINES + " lines");
            for (EmulatedNode node : sb.sandbox.nodes()) {
                for (Path log : logs(node.folder())) {
                    tails.append("\n---- ")
                            .append(node.name())
                            .append(": ")
                            .append(node.folder().relativize(log));
                    tail(log).forEach(line -> tails.append('\n').append(line));
                }
            }
            failure.addSuppressed(new NodeLogs(tails.toString()));
        }
        throw failure;
    }

    /** The log tails, as a message without a stack trace of its own. */
    private static final class NodeLogs extends Exception {
        NodeLogs(String message) {
            super(message, null, false, false);
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
            List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                    .lines()
                    .toList();
            return lines.subList(Math.max(0, lines.size() - LINES), lines.size());
        } catch (IOException e) {
            return List.of("(unreadable: " + e.getMessage() + ")");
        }
    }
}
