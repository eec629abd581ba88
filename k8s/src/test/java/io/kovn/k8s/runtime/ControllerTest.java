package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ControllerTest {

    private static final Backoff FAST = new Backoff(Duration.ofMillis(10), Duration.ofSeconds(1));

    @Test
    void neverReconcilesOneKeyTwiceAtOnceAndDeduplicatesBurstsOfAdds() throws Exception {
        Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();
        AtomicInteger maxPerKey = new AtomicInteger();
        AtomicInteger maxOverall = new AtomicInteger();
        AtomicInteger overall = new AtomicInteger();
        Reconciler<String> slow = key -> {
            int now = running.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            maxPerKey.accumulateAndGet(now, Math::max);
            maxOverall.accumulateAndGet(overall.incrementAndGet(), Math::max);
            Thread.sleep(5); // simulated work, so adds pile up meanwhile
            overall.decrementAndGet();
            running.get(key).decrementAndGet();
            reconciles.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            return ReconcileResult.done();
        };
        try (var controller = Controller.builder("dedupe", slow).workers(4).build()) {
            controller.start();
            for (int round = 0; round < 200; round++) {
                for (String key : List.of("a", "b", "c")) {
                    controller.enqueue(key);
                }
            }
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> controller.queueDepth() == 0
                            && running.values().stream().allMatch(count -> count.get() == 0));
        }
        assertThat(maxPerKey).hasValue(1);
        assertThat(maxOverall.get()).as("different keys run in parallel").isGreaterThan(1);
        assertThat(reconciles.get("a").get()).isBetween(1, 199);
    }

    @Test
    void aKeyAddedDuringItsReconcileIsReconciledAgainAfterwards() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Reconciler<String> blocking = firstCallWaits(inside, release, calls);
        try (var controller = Controller.builder("level", blocking).workers(2).build()) {
            controller.start();
            controller.enqueue("a");
            assertThat(inside.await(2, TimeUnit.SECONDS)).isTrue();
            controller.enqueue("a");
            controller.enqueue("a");
            release.countDown();
            await().atMost(Duration.ofSeconds(2)).until(() -> calls.get() == 2);
        }
        assertThat(calls).hasValue(2);
    }

    @Test
    void queueToDoneOfAKeyAddedTwiceBeforeAWorkerTookItStartsAtTheFirstAdd() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        AtomicLong started = new AtomicLong();
        Reconciler<String> reconciler = key -> {
            if (key.equals("busy")) { // holds the only worker while "a" is added twice
                inside.countDown();
                release.await();
            } else {
                started.set(System.nanoTime());
                calls.incrementAndGet();
            }
            return ReconcileResult.done();
        };
        List<Duration> observed = new CopyOnWriteArrayList<>();
        ControllerMetrics metrics = new ControllerMetrics() {
            @Override
            public void queueToDone(String controller, Duration latency, ReconcileResult result) {
                observed.add(latency);
            }
        };
        long firstAdd;
        long secondAdd;
        long end;
        try (var controller =
                Controller.builder("queue-to-done", reconciler).metrics(metrics).build()) {
            controller.start();
            controller.enqueue("busy");
            assertThat(inside.await(2, TimeUnit.SECONDS)).isTrue();
            firstAdd = System.nanoTime();
            controller.enqueue("a");
            Thread.sleep(50);
            secondAdd = System.nanoTime();
            controller.enqueue("a");
            release.countDown();
            await().atMost(Duration.ofSeconds(2)).until(() -> controller.recentQueueToDone().length == 2);
            end = System.nanoTime();
            long[] recent = controller.recentQueueToDone();
            assertThat(calls).hasValue(1);
            long a = recent[1]; // "busy" finished first: one worker
            // timed from the first add: at least the 50 ms between the adds plus the wait after the second
            assertThat(a)
                    .isGreaterThanOrEqualTo(started.get() - secondAdd + TimeUnit.MILLISECONDS.toNanos(50))
                    .isLessThanOrEqualTo(end - firstAdd);
            assertThat(observed).extracting(Duration::toNanos).containsExactly(recent[0], recent[1]);
        }
    }

    @Test
    void recentQueueToDoneKeepsOnlyTheKeysAskedFor() {
        try (var controller = Controller.<String>builder("recorded", key -> ReconcileResult.done())
                .recordQueueToDone("user"::equals)
                .build()) {
            controller.start();
            controller.enqueue("echo");
            controller.enqueue("user");
            controller.enqueue("echo-2");
            await().atMost(Duration.ofSeconds(2)).until(controller::isIdle);
            await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(controller::isIdle);
            assertThat(controller.recentQueueToDone()).hasSize(1);
        }
    }

    @Test
    void queueToDoneOfAKeyAddedDuringItsReconcileStartsAtThatAdd() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Reconciler<String> blocking = firstCallWaits(inside, release, calls);
        try (var controller =
                Controller.builder("queue-to-done-again", blocking).workers(2).build()) {
            controller.start();
            controller.enqueue("a");
            assertThat(inside.await(2, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(50);
            long again = System.nanoTime();
            controller.enqueue("a");
            release.countDown();
            await().atMost(Duration.ofSeconds(2)).until(() -> controller.recentQueueToDone().length == 2);
            long end = System.nanoTime();
            long[] recent = controller.recentQueueToDone();
            assertThat(recent[0]).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
            assertThat(recent[1]).as("from the add during the first reconcile").isLessThanOrEqualTo(end - again);
        }
    }

    @Test
    void failuresAreRetriedWithGrowingBackoffUntilTheyStopAndThenForgotten() throws Exception {
        List<Long> attempts = new CopyOnWriteArrayList<>();
        Reconciler<String> flaky = key -> {
            attempts.add(System.nanoTime());
            if (attempts.size() <= 3) {
                return ReconcileResult.failed(new IllegalStateException("not yet"));
            }
            if (attempts.size() == 4) {
                throw new IllegalStateException("thrown counts as failed");
            }
            return ReconcileResult.done();
        };
        var controller = Controller.builder("retry", flaky).backoff(FAST).build();
        try (controller) {
            controller.start();
            controller.enqueue("a");
            await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 5);
            assertThat(controller.failures("a")).isZero();
        }
        // 10, 20, 40, 80 ms: each gap at least its backoff
        for (int i = 1; i < attempts.size(); i++) {
            long gapMillis = TimeUnit.NANOSECONDS.toMillis(attempts.get(i) - attempts.get(i - 1));
            assertThat(gapMillis)
                    .as("gap before attempt %d", i + 1)
                    .isGreaterThanOrEqualTo(FAST.delay(i).toMillis());
        }
    }

    @Test
    void aSuccessfulReconcileDropsTheRetryScheduledBeforeIt() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Reconciler<String> failsOnce = key -> attempts.incrementAndGet() == 1
                ? ReconcileResult.failed(new IllegalStateException("once"))
                : ReconcileResult.done();
        Backoff slow = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(1));
        try (var controller =
                Controller.builder("superseded", failsOnce).backoff(slow).build()) {
            controller.start();
            controller.enqueue("a");
            await().atMost(Duration.ofSeconds(2)).until(() -> attempts.get() == 1 && !controller.isIdle());
            controller.enqueue("a"); // an event before the retry is due: reconciled now, and it succeeds
            await().atMost(Duration.ofMillis(600)).until(() -> attempts.get() == 2 && controller.isIdle());
            Thread.sleep(1_000); // past the dropped retry's deadline
            assertThat(attempts).as("no third reconcile for the dropped retry").hasValue(2);
            assertThat(controller.isIdle()).isTrue();
        }
    }

    @Test
    void requeueReconcilesAgainAfterTheDelayWithoutCountingAFailure() throws Exception {
        List<Long> attempts = new CopyOnWriteArrayList<>();
        Reconciler<String> polling = key -> {
            attempts.add(System.nanoTime());
            return attempts.size() < 3 ? ReconcileResult.requeue(Duration.ofMillis(50)) : ReconcileResult.done();
        };
        try (var controller = Controller.builder("requeue", polling).build()) {
            controller.start();
            controller.enqueue("a");
            await().atMost(Duration.ofSeconds(2)).until(() -> attempts.size() == 3);
            assertThat(controller.failures("a")).isZero();
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(attempts.get(2) - attempts.get(0)))
                .isGreaterThanOrEqualTo(100);
    }

    @Test
    void closeLetsTheRunningReconcileFinishAndStartsNoNewOnes() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        AtomicInteger finished = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        Reconciler<String> slow = key -> {
            started.incrementAndGet();
            inside.countDown();
            Thread.sleep(100);
            finished.incrementAndGet();
            return ReconcileResult.failed(new IllegalStateException("would retry"));
        };
        var controller = Controller.builder("shutdown", slow).backoff(FAST).build();
        controller.start();
        controller.enqueue("a");
        assertThat(inside.await(2, TimeUnit.SECONDS)).isTrue();
        controller.close();
        assertThat(finished).hasValue(1);
        controller.enqueue("b");
        Thread.sleep(50); // nothing may start after close: give it a chance to misbehave
        assertThat(started).hasValue(1);
    }

    @Test
    void metricsSeeEveryReconcileAndItsResult() throws Exception {
        Map<String, AtomicInteger> results = new ConcurrentHashMap<>();
        ControllerMetrics metrics = new ControllerMetrics() {
            @Override
            public void reconciled(String controller, Duration latency, ReconcileResult result) {
                results.computeIfAbsent(result.getClass().getSimpleName(), k -> new AtomicInteger())
                        .incrementAndGet();
            }
        };
        AtomicInteger calls = new AtomicInteger();
        Reconciler<String> once = key -> calls.incrementAndGet() == 1
                ? ReconcileResult.failed(new IllegalStateException("first"))
                : ReconcileResult.done();
        try (var controller = Controller.builder("metrics", once)
                .backoff(FAST)
                .metrics(metrics)
                .build()) {
            controller.start();
            controller.enqueue("a");
            await().atMost(Duration.ofSeconds(2)).until(() -> results.containsKey("Done"));
        }
        assertThat(results.get("Failed")).hasValue(1);
        assertThat(results.get("Done")).hasValue(1);
    }

    /** A reconciler whose first call signals {@code inside} and waits for {@code release}; it counts its calls. */
    private static Reconciler<String> firstCallWaits(
            CountDownLatch inside, CountDownLatch release, AtomicInteger calls) {
        return key -> {
            if (calls.incrementAndGet() == 1) {
                inside.countDown();
                release.await();
            }
            return ReconcileResult.done();
        };
    }
}
