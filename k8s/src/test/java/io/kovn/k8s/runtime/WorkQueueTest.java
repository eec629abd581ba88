package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

    private final WorkQueue<String> queue = new WorkQueue<>("test", ControllerMetrics.NONE);

    @AfterEach
    void close() {
        queue.close();
    }

    @Test
    void aKeyAddedTwiceWhileWaitingIsQueuedOnce() throws Exception {
        queue.add("a");
        queue.add("b");
        queue.add("a");
        assertThat(queue.depth()).isEqualTo(2);
        assertThat(queue.take()).contains("a");
        assertThat(queue.take()).contains("b");
        assertThat(queue.depth()).isZero();
    }

    @Test
    void aKeyAddedWhileProcessingIsHandedOutAgainOnlyAfterDone() throws Exception {
        queue.add("a");
        assertThat(queue.take()).contains("a");
        queue.add("a");
        queue.add("a");
        assertThat(queue.depth())
                .as("not given to a second worker while processing")
                .isZero();
        queue.done("a");
        assertThat(queue.depth()).isEqualTo(1);
        assertThat(queue.take()).contains("a");
        queue.done("a");
        assertThat(queue.depth()).isZero();
    }

    @Test
    void aBatchTakesUpToMaxQueuedKeysInOrderWithoutWaitingForMore() throws Exception {
        for (String key : List.of("a", "b", "c", "d", "e")) {
            queue.add(key);
        }
        assertThat(queue.takeQueued(3)).extracting(WorkQueue.Taken::key).containsExactly("a", "b", "c");
        assertThat(queue.takeQueued(3)).extracting(WorkQueue.Taken::key).containsExactly("d", "e");
        queue.add("f");
        assertThat(queue.takeQueued(3)).extracting(WorkQueue.Taken::key).containsExactly("f");
    }

    @Test
    void keysOfABatchAreProcessingUntilEachIsDone() throws Exception {
        queue.add("a");
        queue.add("b");
        assertThat(queue.takeQueued(10)).hasSize(2);
        queue.add("a");
        queue.add("b");
        assertThat(queue.depth())
                .as("no key of a batch is handed to another worker")
                .isZero();
        queue.done("a");
        assertThat(queue.takeQueued(10)).extracting(WorkQueue.Taken::key).containsExactly("a");
        assertThat(queue.isIdle()).isFalse();
        queue.done("b");
        queue.done("a");
        assertThat(queue.takeQueued(10)).extracting(WorkQueue.Taken::key).containsExactly("b");
        queue.done("b");
        assertThat(queue.isIdle()).isTrue();
    }

    @Test
    void addAfterQueuesTheKeyOnceItsEarliestDeadlinePasses() throws Exception {
        queue.addAfter("a", Duration.ofSeconds(30));
        queue.addAfter("a", Duration.ofMillis(20));
        queue.addAfter("a", Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(2)).until(() -> queue.depth() == 1);
        assertThat(queue.take()).contains("a");
        queue.done("a");
        assertThat(queue.depth()).isZero();
    }

    @Test
    void addAllAfterQueuesTheKeysAtOneInstantAndIsNotIdleMeanwhile() throws Exception {
        queue.addAfter("c", Duration.ofMillis(10)); // an earlier deadline stays that key's
        queue.addAllAfter(List.of("a", "b", "c"), Duration.ofMillis(200));
        assertThat(queue.isIdle()).isFalse();
        assertThat(queue.take()).contains("c");
        queue.done("c");
        await().atMost(Duration.ofSeconds(2)).until(() -> queue.depth() > 0);
        assertThat(queue.takeQueued(10))
                .as("one batch: all were queued under one lock")
                .extracting(WorkQueue.Taken::key)
                .containsExactly("a", "b");
        queue.done("a");
        queue.done("b");
        assertThat(queue.isIdle()).isTrue();
    }

    @Test
    void forgetDelayedDropsOnlyADelayAskedForBeforeTheGivenTime() throws Exception {
        queue.addAfter("a", Duration.ofMillis(100));
        long between = System.nanoTime();
        Thread.sleep(1); // nanoTime may not move between two calls
        queue.addAfter("b", Duration.ofMillis(100));
        queue.forgetDelayed("a", between);
        queue.forgetDelayed("b", between);
        queue.forgetDelayed("c", between); // nothing pending: nothing happens
        await().atMost(Duration.ofSeconds(2)).until(() -> queue.depth() == 1);
        assertThat(queue.take()).contains("b");
        queue.done("b");
        Thread.sleep(200); // a's timer has fired by now
        assertThat(queue.depth())
                .as("a's dropped delay added nothing when its timer fired")
                .isZero();
        assertThat(queue.isIdle()).isTrue();
    }

    @Test
    void aLongerDelayAskedForLaterKeepsTheEarlierOneFromBeingForgotten() throws Exception {
        queue.addAfter("a", Duration.ofMillis(100));
        long reconcileStarted = System.nanoTime();
        Thread.sleep(1); // nanoTime may not move between two calls
        queue.addAfter(
                "a", Duration.ofMillis(300)); // asked for during the reconcile; the earlier deadline stands for it
        queue.forgetDelayed("a", reconcileStarted);
        await().atMost(Duration.ofSeconds(2)).until(() -> queue.depth() == 1);
        assertThat(queue.take()).contains("a");
    }

    @Test
    void idleMeansNothingQueuedProcessingOrDelayed() throws Exception {
        assertThat(queue.isIdle()).isTrue();
        queue.add("a");
        assertThat(queue.isIdle()).isFalse();
        assertThat(queue.take()).contains("a");
        assertThat(queue.isIdle()).as("while processing").isFalse();
        queue.done("a");
        assertThat(queue.isIdle()).isTrue();
        queue.addAfter("b", Duration.ofMillis(30));
        assertThat(queue.isIdle()).as("while a retry waits").isFalse();
        await().atMost(Duration.ofSeconds(2)).until(() -> queue.depth() == 1);
        assertThat(queue.take()).contains("b");
        queue.done("b");
        assertThat(queue.isIdle()).isTrue();
    }

    @Test
    void shutdownWakesWaitingTakersAndRefusesNewKeys() throws Exception {
        CompletableFuture<Optional<String>> taker = CompletableFuture.supplyAsync(() -> {
            try {
                return queue.take();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        queue.shutdown();
        assertThat(taker.get(2, TimeUnit.SECONDS)).isEmpty();
        queue.add("a");
        assertThat(queue.depth()).isZero();
    }

    @Test
    void keysQueuedBeforeShutdownAreStillHandedOutToDrain() throws Exception {
        queue.add("a");
        queue.shutdown();
        assertThat(queue.take()).contains("a");
        assertThat(queue.awaitIdle(Duration.ofMillis(10))).isFalse();
        queue.done("a");
        assertThat(queue.awaitIdle(Duration.ofMillis(10))).isTrue();
        assertThat(queue.take()).isEmpty();
    }
}
