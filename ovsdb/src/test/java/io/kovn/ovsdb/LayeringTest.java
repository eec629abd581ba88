package io.kovn.ovsdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library is layered as libovsdb is: each package may use only the levels below it. Checked from the sources'
 * references to {@code io.kovn.ovsdb.<package>}.
 */
class LayeringTest {
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "data", Set.of(),
            "schema", Set.of("data"),
            "ops", Set.of("data"),
            "wire", Set.of("data", "schema", "ops"),
            "rpc", Set.of("wire"),
            "client", Set.of("data", "schema", "ops", "wire", "rpc"),
            "cache", Set.of("data", "schema", "ops", "wire", "rpc", "client"));
    private static final Pattern REF = Pattern.compile("io\\.kovn\\.ovsdb\\.([a-z]+)\\.");

    @Test
    void everyPackageUsesOnlyTheLevelsBelowIt() throws IOException {
        Path root = Path.of("src/main/java/io/kovn/ovsdb");
        List<String> violations = new ArrayList<>();
        for (var e : ALLOWED.entrySet()) {
            try (Stream<Path> files = Files.list(root.resolve(e.getKey()))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = REF.matcher(Files.readString(f));
                    while (m.find()) {
                        String used = m.group(1);
                        if (!used.equals(e.getKey()) && !e.getValue().contains(used)) {
                            violations.add(f.getFileName() + " (" + e.getKey() + ") uses " + used);
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }
}
