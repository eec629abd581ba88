package io.kovn.cli;

import ch.qos.logback.classic.Level;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The daemons' logging options ({@code kovn node}, {@code kovn cluster-manager}, {@code kovn identity}):
 * {@code --log-level=trace|debug|info|warn|error} (default info, or the value of {@code -Dkovn.log.level}) and
 * {@code --log-format=text|json}. {@link #apply} before anything is started.
 */
public final class LogOptions {
    @Option(
            names = "--log-level",
            defaultValue = "${sys:kovn.log.level:-info}",
            converter = LevelConverter.class,
            description = "trace, debug, info, warn or error (default: info, or -Dkovn.log.level)")
    Level level = Level.INFO;

    @Option(
            names = "--log-format",
            defaultValue = "text",
            description = "text (ISO-8601 timestamps) or json (one object per line) (default: ${DEFAULT-VALUE})")
    LogConfigurator.Format format = LogConfigurator.Format.text;

    /** Configures the process's logging as the options say. */
    public void apply() {
        LogConfigurator.reconfigure(level, format);
    }

    /** The five levels by name, in any case; anything else is an error (logback would quietly pick DEBUG). */
    static final class LevelConverter implements CommandLine.ITypeConverter<Level> {
        private static final Set<String> NAMES = Set.of("trace", "debug", "info", "warn", "error");

        @Override
        public Level convert(String value) {
            String name = value.strip().toLowerCase(Locale.ROOT);
            if (!NAMES.contains(name)) {
                throw new CommandLine.TypeConversionException(
                        "log level must be trace, debug, info, warn or error, not " + value);
            }
            return Level.toLevel(name);
        }
    }
}
