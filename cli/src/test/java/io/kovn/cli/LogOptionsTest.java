package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import picocli.CommandLine;

class LogOptionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "kovn {0} logs at INFO in text unless told otherwise")
    @ValueSource(strings = {"node", "cluster-manager", "identity"})
    void theDaemonsDefaultToInfoAndText(String daemon) {
        LogOptions options = options(daemon);
        assertThat(options.level).isEqualTo(Level.INFO);
        assertThat(options.format).isEqualTo(LogConfigurator.Format.text);
    }

    @ParameterizedTest(name = "kovn {0} --log-level=debug --log-format=json")
    @ValueSource(strings = {"node", "cluster-manager", "identity"})
    void theDaemonsTakeLevelAndFormat(String daemon) {
        LogOptions options = options(daemon, "--log-level=DEBUG", "--log-format=json");
        assertThat(options.level).isEqualTo(Level.DEBUG);
        assertThat(options.format).isEqualTo(LogConfigurator.Format.json);
    }

    @Test
    void anUnknownLevelIsRefused() {
        assertThatThrownBy(() -> options("cluster-manager", "--log-level=verbose"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("trace, debug, info, warn or error");
    }

    @Test
    void thePropertyStillSetsTheDefault() {
        String before = System.getProperty("kovn.log.level");
        System.setProperty("kovn.log.level", "WARN");
        try {
            assertThat(options("cluster-manager").level).isEqualTo(Level.WARN);
            assertThat(options("cluster-manager", "--log-level=trace").level).isEqualTo(Level.TRACE);
        } finally {
            if (before == null) {
                System.clearProperty("kovn.log.level");
            } else {
                System.setProperty("kovn.log.level", before);
            }
        }
    }

    @Test
    void theLevelDecidesWhatIsWritten() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Logger log = configured(Level.WARN, LogConfigurator.Format.text, out).getLogger("io.kovn.test");
        log.info("not written");
        log.warn("written");
        assertThat(lines(out)).singleElement().asString().endsWith("WARN  [main] io.kovn.test - written");
    }

    @Test
    void textLinesStartWithAnIsoTimestampWithDateAndZone() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        configured(Level.INFO, LogConfigurator.Format.text, out)
                .getLogger("io.kovn.node.NodeAgent")
                .info("node agent for {} up", "node-a");
        assertThat(lines(out))
                .singleElement()
                .asString()
                .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) INFO  \\[main] "
                        + "io\\.kovn\\.node\\.NodeAgent - node agent for node-a up");
    }

    @Test
    void jsonLinesAreOneObjectEachWithTimestampLevelLoggerAndMessage() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Logger log = configured(Level.DEBUG, LogConfigurator.Format.json, out).getLogger("io.kovn.cni");
        long before = System.currentTimeMillis();
        log.debug("CNI {}: ok in {} ms", "ADD ns/pod", 12);
        log.warn("quote \" and newline\nin a message", new IllegalStateException("boom"));
        List<String> lines = lines(out);
        assertThat(lines).hasSize(2);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("timestamp").asLong()).isBetween(before, System.currentTimeMillis());
        assertThat(first.get("level").asText()).isEqualTo("DEBUG");
        assertThat(first.get("loggerName").asText()).isEqualTo("io.kovn.cni");
        assertThat(first.get("formattedMessage").asText()).isEqualTo("CNI ADD ns/pod: ok in 12 ms");
        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.get("formattedMessage").asText()).isEqualTo("quote \" and newline\nin a message");
        assertThat(second.get("throwable").get("message").asText()).isEqualTo("boom");
    }

    private static LogOptions options(String daemon, String... args) {
        List<String> all = new ArrayList<>(List.of(daemon));
        if (daemon.equals("node")) {
            all.addAll(List.of("--node-name=a", "--nb=unix:/nb", "--sb=unix:/sb"));
        }
        all.addAll(List.of(args));
        Object command = CommandLineParsingTest.command(CommandLineParsingTest.parse(all.toArray(String[]::new)));
        return switch (command) {
            case NodeCommand n -> n.log;
            case ClusterManagerCommand c -> c.log;
            case IdentityCommand i -> i.log;
            default -> throw new AssertionError(command);
        };
    }

    private static LoggerContext configured(Level level, LogConfigurator.Format format, ByteArrayOutputStream out) {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter()); // as logback's own initialisation does
        LogConfigurator.configure(context, level, format, out);
        return context;
    }

    private static List<String> lines(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
