package io.kovn.cli;

import java.time.Duration;
import java.util.regex.Pattern;

/** Parses durations as operators write them: {@code 3s}, {@code 500ms}, {@code 2m}. */
final class Durations {
    private Durations() {}

    static Duration parse(String s) {
        var m = Pattern.compile("(\\d+)(ms|s|m)").matcher(s.trim());
        if (!m.matches()) throw new IllegalArgumentException("duration must look like 500ms, 3s or 2m: " + s);
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            default -> Duration.ofMinutes(n);
        };
    }
}
