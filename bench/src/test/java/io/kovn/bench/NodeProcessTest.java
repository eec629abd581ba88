package io.kovn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeProcessTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theBenchmarkStartsTheNodeProcessWithTheManifestsJavaCommandLine() throws Exception {
        List<String> command = NodeProcess.deployedCommand(ROOT);
        assertThat(command.getFirst()).endsWith("java");
        // the container's memory limit as the JVM would read it, then the manifest's options in order
        assertThat(command.get(1)).isEqualTo("-XX:MaxRAM=768m");
        assertThat(command)
                .contains(
                        "-Dkovn.log.level=INFO",
                        "-XX:TieredStopAtLevel=1",
                        "--enable-native-access=ALL-UNNAMED",
                        ROOT.resolve("cli/target/lib") + "/*")
                .endsWith("io.kovn.cli.Main");
        assertThat(command).noneMatch(a -> a.contains("/opt/kovn"));
    }

    @Test
    void anExperimentReplacesTheClassCacheOption() throws Exception {
        List<String> command = NodeProcess.withClassCache(
                List.of("java", "-XX:AOTCache=/a.aot", "-cp", "x", "Main"),
                "-XX:AOTMode=record",
                "-XX:AOTConfiguration=/b.conf");
        assertThat(command)
                .containsExactly("java", "-XX:AOTMode=record", "-XX:AOTConfiguration=/b.conf", "-cp", "x", "Main");
    }
}
