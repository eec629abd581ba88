package io.kovn.node.cni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeyedSerializerTest {
    final KeyedSerializer serializer = new KeyedSerializer();

    CompletableFuture<Void> runAsync(
            String key, CountDownLatch entered, CountDownLatch release, AtomicInteger inside, AtomicInteger maxInside) {
        return CompletableFuture.runAsync(
                () -> {
                    try {
                        serializer.run(key, () -> {
                            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            entered.countDown();
                            await(release);
                            inside.decrementAndGet();
                            return null;
                        });
                    } catch (CniException | RuntimeException e) {
                        throw new IllegalStateException(e);
                    }
                },
                Executors.newVirtualThreadPerTaskExecutor());
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void callsForOneAttachmentRunOneAtATimeAndOthersDoNotWait() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstEntered = new CountDownLatch(1);
        CountDownLatch secondEntered = new CountDownLatch(1);
        var first = runAsync("kovn/c1/eth0", firstEntered, release, inside, maxInside);
        assertThat(firstEntered.await(5, TimeUnit.SECONDS)).isTrue();
        var second = runAsync("kovn/c1/eth0", secondEntered, release, inside, maxInside);
        assertThat(secondEntered.await(200, TimeUnit.MILLISECONDS)).isFalse(); // waits for the first

        CountDownLatch otherEntered = new CountDownLatch(1);
        CountDownLatch otherRelease = new CountDownLatch(0);
        runAsync("kovn/c2/eth0", otherEntered, otherRelease, new AtomicInteger(), new AtomicInteger())
                .get(5, TimeUnit.SECONDS); // another container is not held up
        release.countDown();
        first.get(5, TimeUnit.SECONDS);
        second.get(5, TimeUnit.SECONDS);
        assertThat(maxInside.get()).isEqualTo(1);
        assertThat(serializer.size()).isZero();
    }

    @Test
    void aFailingActionReleasesItsKey() {
        assertThatThrownBy(() -> serializer.run("k", () -> {
                    throw new CniException(3, "gone");
                }))
                .isInstanceOf(CniException.class);
        assertThat(serializer.size()).isZero();
    }
}
