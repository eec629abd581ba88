package io.kovn.k8s.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A keyed, de-duplicating work queue with client-go's semantics:
 *
 * <ul>
 *   <li>a key added while already waiting is queued once ({@code dirty} set);
 *   <li>a key added while being processed is not handed to another worker; it is queued again when the current worker
 *       calls {@link #done}, so one key is never reconciled twice at once;
 *   <li>{@link #addAfter} keeps only the earliest pending deadline per key, and {@link #forgetDelayed} drops one
 *       scheduled before a given time (a reconcile that started later has made it redundant);
 *   <li>{@link #shutdown} stops accepting keys and wakes waiting workers; {@link #awaitIdle} lets an owner drain
 *       in-flight work before closing.
 * </ul>
 *
 * @param <K> the key type (needs value equality)
 */
public final class WorkQueue<K> implements AutoCloseable {

    private final String name;
    private final ControllerMetrics metrics;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<K> queue = new ArrayDeque<>();
    private final Map<K, Long> dirty = new HashMap<>(); // key -> nanoTime it was queued
    private final Set<K> processing = new HashSet<>();
    private final Map<K, Delayed> waiting = new HashMap<>(); // key -> earliest pending addAfter
    private final ScheduledExecutorService timers;
    private boolean shuttingDown;

    public WorkQueue(String name, ControllerMetrics metrics) {
        this.name = name;
        this.metrics = metrics;
        this.timers = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .daemon()
                .name("kovn-queue-" + name + "-timer")
                .factory());
    }

    public String name() {
        return name;
    }

    /** Queues {@code key} unless it is already waiting; ignored after {@link #shutdown}. */
    public void add(K key) {
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            boolean duplicate = dirty.containsKey(key);
            metrics.added(name, duplicate);
            if (duplicate) {
                return;
            }
            dirty.put(key, System.nanoTime());
            if (!processing.contains(key)) {
                queue.addLast(key);
                metrics.depth(name, queue.size());
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** A pending {@link #addAfter}: when it fires, and when it was last asked for. */
    private record Delayed(long deadline, long scheduledAt) {}

    /** Queues {@code key} after {@code delay}; of several pending delays for one key the earliest wins. */
    public void addAfter(K key, Duration delay) {
        addAllAfter(List.of(key), delay);
    }

    /**
     * {@link #addAfter} for each of {@code keys}, on one timer that queues them all at the same instant: a batching
     * worker takes them together.
     */
    public void addAllAfter(Collection<K> keys, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            keys.forEach(this::add);
            return;
        }
        long now = System.nanoTime();
        Delayed delayed = new Delayed(now + delay.toNanos(), now);
        List<K> timed = new ArrayList<>(keys.size());
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            for (K key : keys) {
                Delayed pending = waiting.get(key);
                if (pending != null && pending.deadline() - delayed.deadline() <= 0) {
                    // the earlier run stays and now also answers this request: forgetDelayed for a
                    // reconcile that started before now must keep it
                    waiting.put(key, new Delayed(pending.deadline(), now));
                } else {
                    waiting.put(key, delayed);
                    timed.add(key);
                }
            }
        } finally {
            lock.unlock();
        }
        if (!timed.isEmpty()) {
            timers.schedule(() -> fire(timed, delayed), delay.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Drops {@code key}'s pending {@link #addAfter} if it was asked for before {@code before} (a
     * {@link System#nanoTime}): a level-driven reconcile that started after a retry or requeue was scheduled has
     * already done what that run would do. Its timer then fires without adding.
     */
    public void forgetDelayed(K key, long before) {
        lock.lock();
        try {
            Delayed pending = waiting.get(key);
            if (pending != null && pending.scheduledAt() - before < 0) {
                waiting.remove(key);
            }
        } finally {
            lock.unlock();
        }
    }

    private void fire(List<K> keys, Delayed delayed) {
        lock.lock();
        try {
            // a later, shorter addAfter superseded this timer (its own timer adds the key), or a reconcile
            // made it redundant. Matched by deadline: a later, longer request keeps the entry's deadline
            // and renews its scheduledAt. Adding under the lock leaves no instant in which the key is
            // neither waiting nor queued (isIdle would lie).
            for (K key : keys) {
                Delayed pending = waiting.get(key);
                if (pending != null && pending.deadline() == delayed.deadline()) {
                    waiting.remove(key);
                    add(key);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A key handed to a worker, with the {@link System#nanoTime} of its earliest add since it last started processing
     * (adds de-duplicated while it waited keep the first one's time).
     */
    public record Taken<K>(K key, long queuedNanos) {}

    /**
     * Blocks until a key is available and marks it as processing; empty once the queue is shut down and no queued key
     * remains. The caller must call {@link #done} with the key.
     */
    public Optional<K> take() throws InterruptedException {
        return takeQueued().map(Taken::key);
    }

    /** {@link #take}, also telling when the key was queued. */
    public Optional<Taken<K>> takeQueued() throws InterruptedException {
        List<Taken<K>> taken = takeQueued(1);
        return taken.isEmpty() ? Optional.empty() : Optional.of(taken.getFirst());
    }

    /**
     * Blocks until a key is available, then takes up to {@code max} of the queued keys at once, in queue order, each
     * marked as processing (no key is queued while it is processing, so a batch never holds a key another worker has).
     * Does not wait for more keys than are queued: with one key queued, the batch is that key. Empty once the queue is
     * shut down and no queued key remains. The caller must call {@link #done} with every key.
     */
    public List<Taken<K>> takeQueued(int max) throws InterruptedException {
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1: " + max);
        }
        lock.lock();
        try {
            while (queue.isEmpty() && !shuttingDown) {
                changed.await();
            }
            int n = Math.min(max, queue.size());
            List<Taken<K>> taken = new ArrayList<>(n);
            long now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                K key = queue.pollFirst();
                processing.add(key);
                Long queuedAt = dirty.remove(key);
                if (queuedAt != null) {
                    metrics.waited(name, Duration.ofNanos(now - queuedAt));
                }
                taken.add(new Taken<>(key, queuedAt != null ? queuedAt : now));
            }
            if (n > 0) {
                metrics.depth(name, queue.size());
            }
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /** Ends processing of {@code key}; if it was added meanwhile, it is queued again now. */
    public void done(K key) {
        lock.lock();
        try {
            processing.remove(key);
            if (dirty.containsKey(key)) {
                queue.addLast(key);
                metrics.depth(name, queue.size());
                changed.signal();
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Keys waiting for a worker (not counting those being processed or delayed). */
    public int depth() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * True when no key is queued, being processed, or waiting for a delay (a retry or requeue): the owner has converged
     * as far as this queue knows.
     */
    public boolean isIdle() {
        lock.lock();
        try {
            return queue.isEmpty() && processing.isEmpty() && waiting.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Stops accepting keys, drops delayed ones and wakes every waiting {@link #take}. */
    public void shutdown() {
        lock.lock();
        try {
            shuttingDown = true;
            waiting.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        timers.shutdownNow();
    }

    public boolean isShutdown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until no key is being processed and none is queued; false if {@code timeout} passed first. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (!processing.isEmpty() || !queue.isEmpty()) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = changed.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        shutdown();
    }
}
