package io.kovn.k8s.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Decides how long a failed key waits before its next reconcile: the larger of its own exponential {@link Backoff} and
 * an overall token bucket ({@code qps}, {@code burst}) shared by all keys, so a mass failure (an API server outage)
 * cannot turn into a retry storm. Retries are never given up.
 *
 * @param <K> the key type
 */
public final class RetryLimiter<K> {

    private final Backoff backoff;
    private final Map<K, Integer> failures = new ConcurrentHashMap<>();
    private final TokenBucket bucket;

    public RetryLimiter(Backoff backoff, double qps, int burst, LongSupplier nanoClock) {
        this.backoff = backoff;
        this.bucket = new TokenBucket(qps, burst, nanoClock);
    }

    /** The defaults of client-go's controller rate limiter: per-key backoff, 10 qps with a burst of 100. */
    public static <K> RetryLimiter<K> defaults(Backoff backoff) {
        return new RetryLimiter<>(backoff, 10, 100, System::nanoTime);
    }

    /** Records one more failure of {@code key} and returns the delay before its retry. */
    public Duration whenFailed(K key) {
        int count = failures.merge(key, 1, Integer::sum);
        Duration perKey = backoff.delay(count);
        Duration overall = bucket.reserve();
        return perKey.compareTo(overall) >= 0 ? perKey : overall;
    }

    /** Forgets the failure history of {@code key}: its next failure starts at the base delay again. */
    public void forget(K key) {
        failures.remove(key);
    }

    /** How many times in a row {@code key} has failed. */
    public int failures(K key) {
        return failures.getOrDefault(key, 0);
    }

    /** A token bucket handing out reservations: the delay until the reserved token is available. */
    private static final class TokenBucket {
        private final double nanosPerToken;
        private final int burst;
        private final LongSupplier clock;
        private double tokens;
        private long last;

        TokenBucket(double qps, int burst, LongSupplier clock) {
            if (qps <= 0 || burst <= 0) {
                throw new IllegalArgumentException("qps and burst must be positive");
            }
            this.nanosPerToken = 1e9 / qps;
            this.burst = burst;
            this.clock = clock;
            this.tokens = burst;
            this.last = clock.getAsLong();
        }

        synchronized Duration reserve() {
            long now = clock.getAsLong();
            tokens = Math.min(burst, tokens + (now - last) / nanosPerToken);
            last = now;
            tokens -= 1;
            // a negative balance is a debt paid back over time: that is the wait
            return tokens >= 0 ? Duration.ZERO : Duration.ofNanos((long) (-tokens * nanosPerToken));
        }
    }
}
