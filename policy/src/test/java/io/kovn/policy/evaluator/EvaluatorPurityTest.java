package io.kovn.policy.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The evaluator is pure: no I/O, clocks, environment, processes or clients. The one use of {@code java.net} is parsing
 * address literals ({@code InetAddress.ofLiteral} never resolves names).
 */
class EvaluatorPurityTest {
    private static final List<String> FORBIDDEN = List.of(
            "java.nio.file",
            "java.io.",
            "java.time.",
            "System.getenv",
            "System.getProperty",
            "System.currentTimeMillis",
            "System.nanoTime",
            "ProcessBuilder",
            "Thread.sleep",
            "io.kovn.ovsdb",
            "io.fabric8.kubernetes.client",
            "getByName",
            "getAllByName",
            "Random");

    @Test
    void evaluatorSourcesUseNoIoClocksOrEnvironment() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/io/kovn/policy/evaluator"))) {
            List<Path> sources =
                    files.filter(f -> f.toString().endsWith(".java")).toList();
            assertThat(sources).hasSizeGreaterThan(10);
            for (Path file : sources) {
                String source = Files.readString(file);
                for (String forbidden : FORBIDDEN) {
                    assertThat(source).as("%s uses %s", file, forbidden).doesNotContain(forbidden);
                }
                String withoutLiteralParsing = source.replace("java.net.InetAddress", "")
                        .replace("java.net.Inet4Address", "")
                        .replace("java.net.Inet6Address", "");
                assertThat(withoutLiteralParsing)
                        .as("%s uses java.net beyond address literals", file)
                        .doesNotContain("java.net.");
            }
        }
    }
}
