package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class LogConfiguratorTest {

    @Test
    void logsWarningsToStderrUnlessTheLevelIsRaisedByProperty() {
        LoggerContext quiet = configured(null);
        assertThat(quiet.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.WARN);
        assertThat(quiet.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("ERR"))
                .isInstanceOfSatisfying(
                        ConsoleAppender.class, a -> assertThat(a.getTarget()).isEqualTo("System.err"));

        LoggerContext daemon = configured("INFO");
        assertThat(daemon.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
        assertThat(daemon.getLogger("io.fabric8.kubernetes.client.informers").getLevel())
                .isEqualTo(Level.WARN);
        assertThat(daemon.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils")
                        .getLevel())
                .isEqualTo(Level.ERROR);

        assertThat(configured("no-such-level")
                        .getLogger(Logger.ROOT_LOGGER_NAME)
                        .getLevel())
                .isEqualTo(Level.WARN);
    }

    @Test
    void logbackFindsItThroughTheServiceLoader() {
        assertThat(ServiceLoader.load(Configurator.class).stream().map(ServiceLoader.Provider::type))
                .contains(LogConfigurator.class);
    }

    private static LoggerContext configured(String level) {
        String before = System.getProperty("kovn.log.level");
        try {
            if (level == null) {
                System.clearProperty("kovn.log.level");
            } else {
                System.setProperty("kovn.log.level", level);
            }
            LoggerContext context = new LoggerContext();
            LogConfigurator configurator = new LogConfigurator();
            configurator.setContext(context);
            assertThat(configurator.configure(context))
                    .isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
            return context;
        } finally {
            if (before == null) {
                System.clearProperty("kovn.log.level");
            } else {
                System.setProperty("kovn.log.level", before);
            }
        }
    }
}
