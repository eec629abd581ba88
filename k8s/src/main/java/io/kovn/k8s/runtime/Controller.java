package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Reconciler} over a {@link WorkQueue}, fed by informers through {@link Mapper}s. Workers wait until
 * every watched informer has synced before their first reconcile, so a reconcile never sees a partial cache. At most
 * one reconcile per key runs at a time; failures are retried with {@link RetryLimiter} backoff, forever.
 *
 * <pre>{@code
 * var controller = Controller.builder("zone-pods", podReconciler)
 *     .watch(podInformer, Mapper.self())
 *     .watch(nodeInformer, node -> podsOn(node))
 *     .workers(2)
 *     .build();
 * controller.start();
 * }</pre>
 *
 * <p>With {@link Builder#batch} and a {@link BatchReconciler}, a worker takes up to that many queued keys at once and
 * reconciles them in one pass; the result of each key is handled as if it had been reconciled alone.
 *
 * @param <K> the key type
 */
public final class Controller<K> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);
    /** How many queue-to-done times {@link #recentQueueToDone()} keeps. */
    public static final int RECENT = 10_000;

    private final String name;
    private final Reconciler<K> reconciler;
    private final int workers;
    /** Keys a worker takes at once; 1 unless the reconciler is a {@link BatchReconciler}. */
    private final int batch;

    private final RetryLimiter<K> retries;
    private final ControllerMetrics metrics;
    private final List<Source<?, K>> sources;
    private final WorkQueue<K> queue;
    private final List<Thread> threads = new ArrayList<>();
    /** Set once a worker has seen the informers synced: before, queued keys are never taken. */
    private volatile boolean synced;

    private final Duration shutdownGrace;
    private final RecentNanos queueToDone = new RecentNanos(RECENT);
    /** The keys whose queue-to-done times {@link #recentQueueToDone()} keeps. */
    private final Predicate<? super K> recorded;

    private Controller(Builder<K> builder) {
        this.name = builder.name;
        this.reconciler = builder.reconciler;
        this.workers = builder.workers;
        this.batch = builder.batch;
        this.retries = builder.retries != null ? builder.retries : RetryLimiter.defaults(builder.backoff);
        this.metrics = builder.metrics;
        this.sources = List.copyOf(builder.sources);
        this.shutdownGrace = builder.shutdownGrace;
        this.recorded = builder.recorded;
        this.queue = new WorkQueue<>(name, metrics);
    }

    public static <K> Builder<K> builder(String name, Reconciler<K> reconciler) {
        return new Builder<>(name, reconciler);
    }

    public String name() {
        return name;
    }

    /** Registers the informer handlers and starts the workers (which first wait for cache sync). */
    public synchronized void start() {
        if (!threads.isEmpty()) {
            throw new IllegalStateException("controller " + name + " already started");
        }
        sources.forEach(source -> source.register(name, queue));
        for (int i = 0; i < workers; i++) {
            threads.add(Thread.ofVirtual().name("kovn-" + name + "-worker-" + i).start(this::work));
        }
    }

    /** Queues {@code key} for reconcile; for event sources outside Kubernetes (e.g. OVSDB). */
    public void enqueue(K key) {
        queue.add(key);
    }

    /** Queues {@code key} after {@code delay}. */
    public void enqueueAfter(K key, Duration delay) {
        queue.addAfter(key, delay);
    }

    /** Queues {@code keys} after {@code delay}, all at the same instant (a batching worker takes them together). */
    public void enqueueAllAfter(Collection<K> keys, Duration delay) {
        queue.addAllAfter(keys, delay);
    }

    /** True once every watched informer has listed its objects. */
    public boolean hasSynced() {
        return sources.stream().allMatch(source -> source.informer.hasSynced());
    }

    /** Blocks until {@link #hasSynced()} or {@code timeout}; false on timeout. */
    public boolean waitForCacheSync(Duration timeout) throws InterruptedException {
        return Informers.waitForCacheSync(timeout, informers());
    }

    /** Keys waiting for a worker. */
    public int queueDepth() {
        return queue.depth();
    }

    /**
     * True when no key is queued, being reconciled, or waiting for a retry or requeue; together with
     * {@link #hasSynced()} this is "converged" for tests and benchmarks.
     */
    public boolean isIdle() {
        return queue.isIdle();
    }

    /**
     * Queue-to-done times (ns) of the most recent reconciles, oldest first (at most {@value #RECENT}): from the
     * earliest add of the key since it last started reconciling (adds coalesced meanwhile keep the first one's time)
     * until the reconcile returned. This is an event's latency as this controller sees it: queue wait, a running
     * reconcile of the same key, and the reconcile itself. A retry or requeue counts from when its delay ran out.
     * Failed reconciles are included.
     */
    public long[] recentQueueToDone() {
        return queueToDone.toArray();
    }

    /** How many times in a row {@code key} has failed (0 after a success). */
    public int failures(K key) {
        return retries.failures(key);
    }

    private List<SharedIndexInformer<?>> informers() {
        return sources.stream()
                .<SharedIndexInformer<?>>map(source -> source.informer)
                .toList();
    }

    private void work() {
        try {
            while (!Informers.waitForCacheSync(Duration.ofSeconds(1), informers())) {
                if (queue.isShutdown()) {
                    return;
                }
            }
            synced = true;
            while (true) {
                List<WorkQueue.Taken<K>> next = queue.takeQueued(batch);
                if (next.isEmpty()) {
                    return;
                }
                if (next.size() == 1) {
                    reconcileAlone(next.getFirst());
                } else {
                    process(next);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void reconcileAlone(WorkQueue.Taken<K> next) {
        K key = next.key();
        long taken = System.nanoTime();
        try {
            handle(key, reconcileOnce(key, next.queuedNanos()), taken);
        } finally {
            queue.done(key);
        }
    }

    /**
     * Keys taken together: a key whose last reconcile failed is reconciled alone (a key that fails a batch, or fails in
     * one, is retried by itself, so it cannot fail its neighbours twice); the others in one batch.
     */
    private void process(List<WorkQueue.Taken<K>> taken) {
        List<WorkQueue.Taken<K>> together = new ArrayList<>(taken.size());
        List<WorkQueue.Taken<K>> alone = new ArrayList<>();
        for (WorkQueue.Taken<K> t : taken) {
            (retries.failures(t.key()) > 0 ? alone : together).add(t);
        }
        boolean batch = together.size() > 1;
        List<WorkQueue.Taken<K>> rest = new ArrayList<>(alone);
        if (!batch) {
            rest.addAll(0, together);
        }
        try {
            if (batch) {
                reconcileBatch(together);
            }
            while (!rest.isEmpty()) {
                reconcileAlone(rest.removeFirst());
            }
        } finally {
            // after a fatal error only: the keys not reconciled yet are released, not held forever
            rest.forEach(t -> queue.done(t.key()));
        }
    }

    private ReconcileResult reconcileOnce(K key, long queued) {
        long started = System.nanoTime();
        ReconcileResult result;
        try {
            result = Objects.requireNonNull(reconciler.reconcile(key), "reconciler returned null");
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable error) {
            result = ReconcileResult.failed(error);
        }
        long finished = System.nanoTime();
        metrics.reconciled(name, Duration.ofNanos(finished - started), result);
        metrics.queueToDone(name, Duration.ofNanos(finished - queued), result);
        if (recorded.test(key)) {
            queueToDone.add(finished - queued);
        }
        return result;
    }

    /**
     * Several keys in one {@link BatchReconciler#reconcileAll}; then each key's result is recorded and handled as
     * {@link #reconcileOnce} and {@link #handle} do for one key. Every key's reconcile latency is the batch's: what the
     * key waited for. A batch that throws fails every key.
     */
    private void reconcileBatch(List<WorkQueue.Taken<K>> taken) {
        long start = System.nanoTime();
        try {
            List<K> keys = taken.stream().map(WorkQueue.Taken::key).toList();
            Map<K, ReconcileResult> results;
            Throwable failure = null;
            try {
                results = Objects.requireNonNull(
                        ((BatchReconciler<K>) reconciler).reconcileAll(keys), "batch reconciler returned null");
            } catch (VirtualMachineError fatal) {
                throw fatal;
            } catch (Throwable error) {
                results = Map.of();
                failure = error;
            }
            long finished = System.nanoTime();
            for (WorkQueue.Taken<K> t : taken) {
                ReconcileResult result = results.get(t.key());
                if (result == null) {
                    result = ReconcileResult.failed(
                            failure != null
                                    ? failure
                                    : new IllegalStateException("batch reconciler returned no result for " + t.key()));
                }
                metrics.reconciled(name, Duration.ofNanos(finished - start), result);
                metrics.queueToDone(name, Duration.ofNanos(finished - t.queuedNanos()), result);
                if (recorded.test(t.key())) {
                    queueToDone.add(finished - t.queuedNanos());
                }
                handle(t.key(), result, start);
            }
        } finally {
            taken.forEach(t -> queue.done(t.key()));
        }
    }

    /**
     * The result decides the key's next delayed run: a retry or requeue scheduled before this reconcile started is
     * dropped first (this reconcile read a newer state than it would have; left pending, it would run once more for
     * nothing and keep the controller from being idle until then, a backoff's full minute at worst).
     */
    private void handle(K key, ReconcileResult result, long taken) {
        queue.forgetDelayed(key, taken);
        switch (result) {
            case ReconcileResult.Done done -> retries.forget(key);
            case ReconcileResult.Requeue(Duration after) -> {
                retries.forget(key);
                queue.addAfter(key, after);
            }
            case ReconcileResult.Failed(Throwable error) -> {
                Duration delay = retries.whenFailed(key);
                LOG.warn(
                        "{}: reconcile of {} failed (attempt {}), retrying in {}: {}",
                        name,
                        key,
                        retries.failures(key),
                        delay,
                        error.toString(),
                        error);
                queue.addAfter(key, delay);
            }
        }
    }

    /**
     * Stops taking new keys, lets in-flight and already-queued reconciles finish for up to the shutdown grace period,
     * then interrupts the workers. Informers are not stopped (they may be shared).
     */
    @Override
    public void close() {
        sources.forEach(Source::unregister);
        queue.shutdown();
        try {
            // closed before its informers synced (a start that failed): no worker takes the queued keys
            if (synced && !queue.awaitIdle(shutdownGrace)) {
                LOG.warn("{}: reconciles still running after {}; interrupting", name, shutdownGrace);
            }
            threads.forEach(Thread::interrupt);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Builds a {@link Controller}. */
    public static final class Builder<K> {
        private final String name;
        private final Reconciler<K> reconciler;
        private final List<Source<?, K>> sources = new ArrayList<>();
        private int workers = 1;
        private int batch = 1;
        private Backoff backoff = Backoff.DEFAULT;
        private RetryLimiter<K> retries;
        private ControllerMetrics metrics = ControllerMetrics.NONE;
        private Duration shutdownGrace = Duration.ofSeconds(10);
        private Predicate<? super K> recorded = key -> true;

        private Builder(String name, Reconciler<K> reconciler) {
            this.name = Objects.requireNonNull(name, "name");
            this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
        }

        /** Queues {@code mapper}'s keys for every add, update (old and new object) and delete of the informer. */
        public <T> Builder<K> watch(SharedIndexInformer<T> informer, Mapper<? super T, K> mapper) {
            sources.add(new Source<>(informer, mapper, null));
            return this;
        }

        /**
         * The same, except for updates that leave {@code relevant} (the part of the object the reconciler reads) equal:
         * a pod's label change, say, is no event for a reconciler that never reads labels. Adds and deletes always
         * queue.
         */
        public <T> Builder<K> watch(
                SharedIndexInformer<T> informer, Mapper<? super T, K> mapper, Function<? super T, ?> relevant) {
            sources.add(new Source<>(informer, mapper, Objects.requireNonNull(relevant, "relevant")));
            return this;
        }

        public Builder<K> workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be >= 1");
            }
            this.workers = workers;
            return this;
        }

        /**
         * Lets a worker take up to {@code maxKeys} queued keys at once and reconcile them with
         * {@link BatchReconciler#reconcileAll} (one key alone still goes through {@link Reconciler#reconcile}).
         * Requires a {@link BatchReconciler}.
         */
        public Builder<K> batch(int maxKeys) {
            if (maxKeys < 1) {
                throw new IllegalArgumentException("batch must be >= 1");
            }
            if (maxKeys > 1 && !(reconciler instanceof BatchReconciler<K>)) {
                throw new IllegalArgumentException("batch of " + maxKeys + " needs a BatchReconciler: " + name);
            }
            this.batch = maxKeys;
            return this;
        }

        public Builder<K> backoff(Backoff backoff) {
            this.backoff = Objects.requireNonNull(backoff);
            return this;
        }

        /** Replaces the default limiter (per-key {@link #backoff} and 10 qps / burst 100 overall). */
        public Builder<K> retryLimiter(RetryLimiter<K> retries) {
            this.retries = Objects.requireNonNull(retries);
            return this;
        }

        public Builder<K> metrics(ControllerMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics);
            return this;
        }

        public Builder<K> shutdownGrace(Duration grace) {
            this.shutdownGrace = Objects.requireNonNull(grace);
            return this;
        }

        /**
         * Keeps only these keys' times in {@link Controller#recentQueueToDone()} (default: every key's), e.g. the key
         * that stands for a user's change and not the keys a reconcile's own writes queue again. The metrics still see
         * every key.
         */
        public Builder<K> recordQueueToDone(Predicate<? super K> keys) {
            this.recorded = Objects.requireNonNull(keys);
            return this;
        }

        public Controller<K> build() {
            return new Controller<>(this);
        }
    }

    /** One informer wired to the queue through a mapper. */
    private static final class Source<T, K> {
        private final SharedIndexInformer<T> informer;
        private final Mapper<? super T, K> mapper;
        /** What of an object the reconciler reads; null: all of it. */
        private final Function<? super T, ?> relevant;

        private ResourceEventHandler<T> handler;

        Source(SharedIndexInformer<T> informer, Mapper<? super T, K> mapper, Function<? super T, ?> relevant) {
            this.informer = informer;
            this.mapper = mapper;
            this.relevant = relevant;
        }

        void register(String controller, WorkQueue<K> queue) {
            handler = new ResourceEventHandler<>() {
                @Override
                public void onAdd(T object) {
                    enqueueAll(object);
                }

                @Override
                public void onUpdate(T oldObject, T newObject) {
                    if (relevant != null && unchanged(oldObject, newObject)) {
                        return;
                    }
                    // both: a label change can move an object out of one primary's selection into another's
                    enqueueAll(oldObject, newObject);
                }

                @Override
                public void onDelete(T object, boolean finalStateUnknown) {
                    enqueueAll(object);
                }

                private boolean unchanged(T oldObject, T newObject) {
                    try {
                        return Objects.equals(relevant.apply(oldObject), relevant.apply(newObject));
                    } catch (RuntimeException e) {
                        LOG.error("{}: cannot compare {} with its update; queued", controller, newObject, e);
                        return false;
                    }
                }

                private void enqueueAll(T object) {
                    keysOf(object).forEach(queue::add);
                }

                /**
                 * The keys of both objects, each once: adding a key twice lets a worker take it between the adds and
                 * reconcile it twice.
                 */
                private void enqueueAll(T object, T other) {
                    Set<K> keys = new LinkedHashSet<>(keysOf(object));
                    keys.addAll(keysOf(other));
                    keys.forEach(queue::add);
                }

                /** The mapper's keys for the object; none (logged) when it fails, so the other object's still count. */
                private Collection<K> keysOf(T object) {
                    try {
                        return mapper.keys(object);
                    } catch (RuntimeException e) {
                        LOG.error("{}: mapper failed for {}", controller, object, e);
                        return List.of();
                    }
                }
            };
            informer.addEventHandler(handler);
        }

        void unregister() {
            if (handler != null) {
                informer.removeEventHandler(handler);
            }
        }
    }
}
