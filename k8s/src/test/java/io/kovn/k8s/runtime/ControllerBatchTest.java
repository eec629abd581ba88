package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ControllerBatchTest {

    private static final Backoff FAST = new Backoff(Duration.ofMillis(10), Duration.ofSeconds(1));

    /** Records every pass: a single reconcile as a list of one key, a batch as its keys. */
    private static final class Recording implements BatchReconciler<String> {
        final List<List<String>> passes = new CopyOnWriteArrayList<>();
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Function<List<String>, Map<String, ReconcileResult>> results;

        Recording(Function<List<String>, Map<String, ReconcileResult>> results) {
            this.results = results;
        }

        @Override
        public ReconcileResult reconcile(String key) throws Exception {
            passes.add(List.of(key));
            if (key.equals("busy")) { // holds the worker while keys pile up
                inside.countDown();
                release.await();
                return ReconcileResult.done();
            }
            return results.apply(List.of(key)).get(key);
        }

        @Override
        public Map<String, ReconcileResult> reconcileAll(List<String> keys) {
            passes.add(List.copyOf(keys));
            return results.apply(keys);
        }
    }

    private static Map<String, ReconcileResult> all(List<String> keys, ReconcileResult result) {
        Map<String, ReconcileResult> out = new HashMap<>();
        keys.forEach(k -> out.put(k, result));
        return out;
    }

    /** Holds the one worker with "busy", queues {@code keys}, lets it go. */
    private static void pileUp(Controller<String> controller, Recording r, List<String> keys) throws Exception {
        controller.enqueue("busy");
        assertThat(r.inside.await(2, TimeUnit.SECONDS)).isTrue();
        keys.forEach(controller::enqueue);
        r.release.countDown();
    }

    @Test
    void queuedKeysAreReconciledTogetherUpToTheBatchSizeAndALoneKeyAsToday() throws Exception {
        Recording r = new Recording(keys -> all(keys, ReconcileResult.done()));
        try (var controller = Controller.builder("batch", r).batch(3).build()) {
            controller.start();
            pileUp(controller, r, List.of("a", "b", "c", "d", "e"));
            await().atMost(Duration.ofSeconds(2)).until(controller::isIdle);
            controller.enqueue("f");
            await().atMost(Duration.ofSeconds(2)).until(() -> r.passes.size() == 4);
            assertThat(r.passes)
                    .containsExactly(List.of("busy"), List.of("a", "b", "c"), List.of("d", "e"), List.of("f"));
            assertThat(controller.recentQueueToDone())
                    .as("one queue-to-done per key")
                    .hasSize(7);
        }
    }

    @Test
    void eachKeyOfABatchGetsItsOwnResult() throws Exception {
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        Recording r = new Recording(keys -> {
            Map<String, ReconcileResult> out = new HashMap<>();
            for (String k : keys) {
                int n = calls.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet();
                out.put(
                        k,
                        switch (k) {
                            case "requeue" ->
                                n == 1 ? ReconcileResult.requeue(Duration.ofMillis(20)) : ReconcileResult.done();
                            case "fail" ->
                                n == 1
                                        ? ReconcileResult.failed(new IllegalStateException("boom"))
                                        : ReconcileResult.done();
                            default -> ReconcileResult.done();
                        });
            }
            return out;
        });
        try (var controller =
                Controller.builder("results", r).batch(10).backoff(FAST).build()) {
            controller.start();
            pileUp(controller, r, List.of("ok", "requeue", "fail"));
            await().atMost(Duration.ofSeconds(2)).until(() -> controller.isIdle() && r.passes.size() >= 4);
            assertThat(r.passes.get(1)).containsExactly("ok", "requeue", "fail");
            assertThat(calls.get("ok")).hasValue(1);
            assertThat(calls.get("requeue")).hasValue(2);
            assertThat(calls.get("fail")).hasValue(2);
            assertThat(controller.failures("fail")).isZero();
        }
    }

    @Test
    void aBatchThatThrowsFailsEveryKeyAndEachIsRetriedByItself() throws Exception {
        AtomicInteger batches = new AtomicInteger();
        Recording r = new Recording(keys -> {
            if (keys.size() > 1) {
                batches.incrementAndGet();
                throw new IllegalStateException("transaction refused");
            }
            return all(keys, ReconcileResult.done());
        });
        try (var controller =
                Controller.builder("failing", r).batch(10).backoff(FAST).build()) {
            controller.start();
            pileUp(controller, r, List.of("a", "b", "c"));
            await().atMost(Duration.ofSeconds(5)).until(controller::isIdle);
            assertThat(batches).hasValue(1);
            // the retries come back around the same time and may be taken together: still each alone
            assertThat(r.passes.subList(2, r.passes.size()))
                    .containsExactlyInAnyOrder(List.of("a"), List.of("b"), List.of("c"));
            assertThat(List.of("a", "b", "c")).allMatch(k -> controller.failures(k) == 0);
        }
    }

    @Test
    void aKeyWithoutAResultInTheBatchIsFailedAndRetried() throws Exception {
        Recording r = new Recording(keys -> keys.size() > 1
                ? all(keys.subList(1, keys.size()), ReconcileResult.done())
                : all(keys, ReconcileResult.done()));
        try (var controller =
                Controller.builder("missing", r).batch(10).backoff(FAST).build()) {
            controller.start();
            pileUp(controller, r, List.of("a", "b"));
            await().atMost(Duration.ofSeconds(2)).until(() -> controller.isIdle() && r.passes.size() == 3);
            assertThat(r.passes).containsExactly(List.of("busy"), List.of("a", "b"), List.of("a"));
        }
    }

    @Test
    void aBatchNeedsABatchReconciler() {
        Reconciler<String> plain = key -> ReconcileResult.done();
        assertThatThrownBy(() -> Controller.builder("plain", plain).batch(2))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Controller.builder("plain", plain).batch(1).build()).isNotNull();
    }
}
