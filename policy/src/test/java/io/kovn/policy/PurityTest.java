package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The translation is a pure function: its main sources use no I/O, clocks, environment or processes. */
class PurityTest {
    static final List<String> FORBIDDEN = List.of(
            "java.nio.file",
            "java.net.",
            "java.io.File",
            "java.time.",
            "System.getenv",
            "System.getProperty",
            "System.currentTimeMillis",
            "System.nanoTime",
            "ProcessBuilder",
            "Thread.sleep",
            "io.kovn.ovsdb.", // not even a value type: the controller turns desired rows into OVSDB rows
            "io.kovn.k8s.runtime", // informer stores: the controller builds the snapshot from them
            "io.fabric8.kubernetes.client.KubernetesClient",
            "Random");

    @Test
    void mainSourcesUseNoIoClocksOrEnvironment() throws IOException {
        Path root = Path.of("src/main/java/io/kovn/policy");
        List<Path> translation = List.of(
                root.resolve("PolicyTranslator.java"),
                root.resolve("model"),
                root.resolve("select"),
                root.resolve("match"),
                root.resolve("admin"),
                root.resolve("netpol"));
        for (Path part : translation) {
            try (Stream<Path> files = Files.walk(part)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    String source = Files.readString(file);
                    for (String forbidden : FORBIDDEN) {
                        assertThat(source).as("%s uses %s", file, forbidden).doesNotContain(forbidden);
                    }
                }
            }
        }
    }
}
