package io.kovn.bench;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logging set-up shared by the benchmark programs and the API server process they start. */
final class BenchLogs {
    private BenchLogs() {}

    /**
     * Logback's default is DEBUG to the console: the mock API server alone would log every request with its whole
     * object (85 MB per run), and that logging would be measured along with kovn.
     */
    static void quiet() {
        Object factory = LoggerFactory.getILoggerFactory();
        try { // reflection: logback is on the runtime class path only
            Object root =
                    factory.getClass().getMethod("getLogger", String.class).invoke(factory, Logger.ROOT_LOGGER_NAME);
            Class<?> level = Class.forName(
                    "ch.qos.logback.classic.Level", true, factory.getClass().getClassLoader());
            root.getClass()
                    .getMethod("setLevel", level)
                    .invoke(root, level.getField("WARN").get(null));
        } catch (ReflectiveOperationException notLogback) {
            // another SLF4J binding: its own configuration applies
        }
    }
}
