package io.kovn.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.io.OutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kovn's logging, configured in code, always on stderr (stdout is the commands' tables, YAML and verdicts).
 *
 * <p>Interactive commands ({@code analyze}, {@code get}, {@code apply}, {@code probe}, {@code trace}, ...) log at WARN:
 * their results are on stdout and a person reads stderr next to them, so only what went wrong belongs there (at INFO,
 * the Kubernetes client's and the controllers' progress would bury the answer). {@code -Dkovn.log.level=INFO} raises
 * it. The daemons ({@code kovn node}, {@code cluster-manager}, {@code identity}) take {@link LogOptions}:
 * {@code --log-level} (default INFO, or {@code -Dkovn.log.level}) and {@code --log-format=text|json}, applied by
 * {@link #reconfigure} once their options are parsed. Text lines carry an ISO-8601 timestamp with the zone's offset;
 * JSON lines are logback's own {@link JsonEncoder} objects, one per line.
 *
 * <p>In code rather than a logback.xml because parsing one loads ~150 XML-configuration classes at every start of a
 * node process. A {@code logback-test.xml} (tests) or {@code -Dlogback.configurationFile} takes precedence, as
 * logback's own configuration would, and is then left alone by {@link #reconfigure}.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    /** The text layout: date and time to the millisecond with the zone's offset, level, thread, logger, message. */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{36} - %msg%n";

    private static final String APPENDER = "ERR";

    /** How log lines are written. */
    public enum Format {
        /** One line of text per event. */
        text,
        /** One JSON object per line: timestamp (epoch ms), level, threadName, loggerName, formattedMessage. */
        json
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (externallyConfigured()) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        configure(context, Level.toLevel(System.getProperty("kovn.log.level"), Level.WARN), Format.text, null);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static boolean externallyConfigured() {
        return System.getProperty("logback.configurationFile") != null
                || LogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null;
    }

    /**
     * The process's logging at {@code level} in {@code format} (a daemon's options); nothing changes when a logback
     * configuration file is in charge.
     */
    public static void reconfigure(Level level, Format format) {
        if (!externallyConfigured() && LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            configure(context, level, format, null);
        }
    }

    /**
     * Sets up {@code context}: root at {@code level}, one appender on stderr (or on {@code out}, for tests) in
     * {@code format}; replaces what was there.
     */
    static void configure(LoggerContext context, Level level, Format format, OutputStream out) {
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        var previous = root.getAppender(APPENDER);
        OutputStreamAppender<ILoggingEvent> appender;
        if (out == null) {
            ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
            console.setTarget("System.err");
            appender = console;
        } else {
            appender = new OutputStreamAppender<>();
            appender.setOutputStream(out);
        }
        appender.setContext(context);
        appender.setName(APPENDER);
        appender.setEncoder(encoder(context, format));
        appender.start();
        root.addAppender(appender);
        if (previous != null) {
            root.detachAppender(previous);
            previous.stop();
        }
        root.setLevel(level);
        // the informers' own progress lines (one per watch restart) are noise at INFO; kovn logs what matters
        context.getLogger("io.fabric8.kubernetes.client.informers")
                .setLevel(level.isGreaterOrEqual(Level.INFO) ? atLeast(level, Level.WARN) : level);
        context.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils")
                .setLevel(Level.ERROR);
    }

    private static Level atLeast(Level level, Level floor) {
        return level.isGreaterOrEqual(floor) ? level : floor;
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, Format format) {
        return switch (format) {
            case text -> {
                PatternLayoutEncoder encoder = new PatternLayoutEncoder();
                encoder.setContext(context);
                encoder.setPattern(TEXT_PATTERN);
                encoder.start();
                yield encoder;
            }
            case json -> {
                JsonEncoder encoder = new JsonEncoder();
                encoder.setContext(context);
                // the message as read, not its template and arguments; no per-line context, MDC or sequence
                encoder.setWithFormattedMessage(true);
                encoder.setWithMessage(false);
                encoder.setWithArguments(false);
                encoder.setWithContext(false);
                encoder.setWithSequenceNumber(false);
                encoder.setWithNanoseconds(false);
                encoder.setWithMDC(false);
                encoder.setWithKVPList(false);
                encoder.start();
                yield encoder;
            }
        };
    }
}
