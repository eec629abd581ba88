package io.kovn.k8s.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-key exponential backoff: {@code base * 2^(failures-1)}, capped at {@code max}. Pure; the failure counts live in
 * {@link RetryLimiter}.
 */
public record Backoff(Duration base, Duration max) {

    /** client-go's defaults for controllers: 5 ms doubling up to 1000 s; kovn caps lower to recover sooner. */
    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(5), Duration.ofSeconds(60));

    public Backoff {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(max, "max");
        if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 < base <= max, got " + base + ", " + max);
        }
    }

    /** The delay before retry number {@code failures} (1 for the first failure). */
    public Duration delay(int failures) {
        if (failures <= 0) {
            return Duration.ZERO;
        }
        // past 2^40 any realistic base has long exceeded max; avoid overflow
        int exponent = Math.min(failures - 1, 40);
        long nanos = base.toNanos();
        long maxNanos = max.toNanos();
        long delay = nanos > (maxNanos >> exponent) ? maxNanos : nanos << exponent;
        return Duration.ofNanos(Math.min(delay, maxNanos));
    }
}
