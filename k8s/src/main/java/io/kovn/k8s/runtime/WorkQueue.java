package io.kovn.k8s.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
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
 * <ul>
 *   <li>a key added while already waiting is queued once ({@code dirty} set);</li>
 *   <li>a key added while being processed is not handed to another worker; it is queued again when
 *       the current worker calls {@link #done}, so one key is never reconciled twice at once;</li>
 *   <li>{@link #addAfter} keeps only the earliest pending deadline per key;</li>
 *   <li>{@link #shutdown} stops accepting keys and wakes waiting workers; {@link #awaitIdle} lets an
 *       owner drain in-flight work before closing.</li>
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
    private final Map<K, Long> waiting = new HashMap<>(); // key -> earliest pending addAfter deadline
    private final ScheduledExecutorService timers;
    private boolean shuttingDown;

    public WorkQueue(String name, ControllerMetrics metrics) {
        this.name = name;
        this.metrics = metrics;
        this.timers = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("kovn-queue-" + name + "-timer").factory());
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

    /** Queues {@code key} after {@code delay}; of several pending delays for one key the earliest wins. */
    public void addAfter(K key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        long deadline = System.nanoTime() + delay.toNanos();
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            Long pending = waiting.get(key);
            if (pending != null && pending - deadline <= 0) {
                return;
            }
            waiting.put(key, deadline);
        } finally {
            lock.unlock();
        }
        timers.schedule(() -> fire(key, deadline), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void fire(K key, long deadline) {
        lock.lock();
        try {
            // a later, shorter addAfter superseded this timer; its own timer adds the key. Adding under the
            // lock leaves no instant in which the key is neither waiting nor queued (isIdle would lie).
            if (waiting.remove(key, deadline)) {
                add(key);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A key handed to a worker, with the {@link System#nanoTime} of its earliest add since it last
     * started processing (adds de-duplicated while it waited keep the first one's time).
     */
    public record Taken<K>(K key, long queuedNanos) {}

    /**
     * Blocks until a key is available and marks it as processing; empty once the queue is shut down
     * and no queued key remains. The caller must call {@link #done} with the key.
     */
    public Optional<K> take() throws InterruptedException {
        return takeQueued().map(Taken::key);
    }

    /** {@link #take}, also telling when the key was queued. */
    public Optional<Taken<K>> takeQueued() throws InterruptedException {
        lock.lock();
        try {
            while (queue.isEmpty() && !shuttingDown) {
                changed.await();
            }
            K key = queue.pollFirst();
            if (key == null) {
                return Optional.empty();
            }
            processing.add(key);
            Long queuedAt = dirty.remove(key);
            long now = System.nanoTime();
            metrics.depth(name, queue.size());
            if (queuedAt != null) {
                metrics.waited(name, Duration.ofNanos(now - queuedAt));
            }
            return Optional.of(new Taken<>(key, queuedAt != null ? queuedAt : now));
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
     * True when no key is queued, being processed, or waiting for a delay (a retry or requeue): the
     * owner has converged as far as this queue knows.
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
