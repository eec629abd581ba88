package io.kovn.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Where an installed runtime lives: a system property, else an environment variable, else a default found from the kovn
 * repository above the working directory. The first that is set wins.
 */
final class RuntimeLocation {
    private RuntimeLocation() {}

    static Path resolve(String property, String environment, Supplier<Path> fallback) {
        String prop = System.getProperty(property);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        String env = System.getenv(environment);
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath().normalize();
        }
        return fallback.get().toAbsolutePath().normalize();
    }

    /** The nearest folder above the working directory that holds {@code marker}. */
    static Path repoRoot(String marker, String property, String environment) {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(marker))) {
                return p;
            }
        }
        throw new IllegalStateException("not configured and no kovn repository (" + marker + ") above " + dir
                + "; set -D" + property + " or " + environment);
    }
}
