package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WriteBarrierTest {
    private static long in(Duration d) {
        return System.nanoTime() + d.toNanos();
    }

    @Test
    void aWriteOfAReconcileThatStartedBeforeWhatWasSeenDoesNotCount() throws Exception {
        WriteBarrier barrier = new WriteBarrier();
        long running = barrier.start();
        long seen = barrier.started();
        barrier.written(running);
        assertThat(barrier.awaitWrittenAfter(seen, in(Duration.ofMillis(50)))).isFalse();
        barrier.written(barrier.start());
        assertThat(barrier.awaitWrittenAfter(seen, in(Duration.ofMillis(50)))).isTrue();
    }

    @Test
    void aWaiterWakesWhenALaterReconcileWrites() throws Exception {
        WriteBarrier barrier = new WriteBarrier();
        long seen = barrier.started();
        CompletableFuture<Boolean> waiter = waiter(barrier, seen);
        long next = barrier.start();
        Thread.sleep(20);
        assertThat(waiter).isNotDone();
        barrier.written(next);
        assertThat(waiter.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anOlderWriteNeverMovesTheMarkBack() throws Exception {
        WriteBarrier barrier = new WriteBarrier();
        long first = barrier.start();
        long second = barrier.start();
        barrier.written(second);
        barrier.written(first);
        assertThat(barrier.awaitWrittenAfter(first, in(Duration.ZERO))).isTrue();
    }

    @Test
    void closingReleasesWaitersWithFalse() throws Exception {
        WriteBarrier barrier = new WriteBarrier();
        CompletableFuture<Boolean> waiter = waiter(barrier, 0);
        Thread.sleep(20);
        barrier.close();
        assertThat(waiter.get(5, TimeUnit.SECONDS)).isFalse();
    }

    /** A thread waiting up to 10 s for a write after {@code seen}. */
    private static CompletableFuture<Boolean> waiter(WriteBarrier barrier, long seen) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return barrier.awaitWrittenAfter(seen, in(Duration.ofSeconds(10)));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
