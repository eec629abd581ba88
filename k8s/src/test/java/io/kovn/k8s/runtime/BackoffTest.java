package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(5), Duration.ofSeconds(1));

    @Test
    void delayDoublesPerFailureUpToTheCap() {
        assertThat(backoff.delay(0)).isZero();
        assertThat(backoff.delay(1)).isEqualTo(Duration.ofMillis(5));
        assertThat(backoff.delay(2)).isEqualTo(Duration.ofMillis(10));
        assertThat(backoff.delay(5)).isEqualTo(Duration.ofMillis(80));
        assertThat(backoff.delay(8)).isEqualTo(Duration.ofMillis(640));
        assertThat(backoff.delay(9)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void rejectsAMaxBelowTheBase() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void limiterTracksFailuresPerKeyAndForgets() {
        AtomicLong now = new AtomicLong();
        RetryLimiter<String> limiter = new RetryLimiter<>(backoff, 1000, 1000, now::get);
        assertThat(limiter.whenFailed("a")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.whenFailed("a")).isEqualTo(Duration.ofMillis(10));
        assertThat(limiter.whenFailed("b")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.failures("a")).isEqualTo(2);
        limiter.forget("a");
        assertThat(limiter.failures("a")).isZero();
        assertThat(limiter.whenFailed("a")).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void overallBucketSpreadsABurstOfFailuresAcrossKeys() {
        AtomicLong now = new AtomicLong();
        // 10 retries per second, burst 2: the third failing key in the same instant waits 100 ms
        RetryLimiter<String> limiter = new RetryLimiter<>(backoff, 10, 2, now::get);
        assertThat(limiter.whenFailed("a")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.whenFailed("b")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.whenFailed("c")).isEqualTo(Duration.ofMillis(100));
        assertThat(limiter.whenFailed("d")).isEqualTo(Duration.ofMillis(200));
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(limiter.whenFailed("e")).isEqualTo(Duration.ofMillis(5));
    }
}
