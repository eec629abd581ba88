package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One cluster-wide informer per kind, shared by the controllers of one process (the zone and policy controllers of a
 * node, every zone of the sandbox): each kind is listed and watched once, held in memory once, and its watch events are
 * decoded once, however many controllers read it.
 *
 * <p>Controllers take informers from here and add their event handlers through {@link Controller.Builder#watch}, which
 * removes them again on close; a handler added to an informer that has already synced gets every cached object replayed
 * as an add, so a controller started later misses nothing. Only the owner of this object closes the informers.
 *
 * <pre>{@code
 * try (SharedInformers informers = new SharedInformers(client)) {
 *   SharedIndexInformer<Pod> pods = informers.synced(Pod.class, timeout);
 *   ...
 * }
 * }</pre>
 */
public final class SharedInformers implements AutoCloseable {

    private final KubernetesClient client;
    private final Map<Class<?>, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
    private final Map<Class<?>, ListedItemStore<?>> stores = new HashMap<>();
    private final Set<Class<?>> started = new HashSet<>();
    private boolean closed;

    /** Informers over {@code client}'s cluster; the client stays its caller's to close, after this. */
    public SharedInformers(KubernetesClient client) {
        this.client = client;
    }

    /** The client these informers list and watch with. */
    public KubernetesClient client() {
        return client;
    }

    /**
     * The informer of {@code kind} in all namespaces, created (not started) on first use. A controller that adds
     * indexers does so before {@link #synced}; fabric8 indexes the objects already cached when an indexer is added
     * later.
     */
    @SuppressWarnings("unchecked")
    public synchronized <T extends HasMetadata> SharedIndexInformer<T> informer(Class<T> kind) {
        if (closed) {
            throw new IllegalStateException("the shared informers are closed");
        }
        return (SharedIndexInformer<T>) informers.computeIfAbsent(kind, k -> create(kind));
    }

    private <T extends HasMetadata> SharedIndexInformer<T> create(Class<T> kind) {
        ListedItemStore<T> store = new ListedItemStore<>();
        stores.put(kind, store);
        return Informers.retrying(
                client.resources(kind).inAnyNamespace().runnableInformer(0).itemStore(store));
    }

    /**
     * The objects of {@code kind}'s informer as one immutable list, the same list until one of them changes (what a
     * controller reads whole each reconcile; {@code getIndexer().list()} copies).
     */
    @SuppressWarnings("unchecked")
    public synchronized <T extends HasMetadata> ListedItemStore<T> store(Class<T> kind) {
        informer(kind);
        return (ListedItemStore<T>) stores.get(kind);
    }

    /**
     * Starts the informers of {@code kinds} that are not running yet and waits until all of them have listed their
     * objects; false when {@code timeout} passes first.
     */
    public boolean sync(Duration timeout, List<Class<? extends HasMetadata>> kinds) throws InterruptedException {
        return Informers.waitForCacheSync(timeout, start(kinds));
    }

    /**
     * The informers of {@code kinds} that have not listed yet, with their last errors ({@link Informers#notSynced}).
     */
    public String notSynced(List<Class<? extends HasMetadata>> kinds) {
        return Informers.notSynced(
                kinds.stream().<SharedIndexInformer<?>>map(this::informer).toList());
    }

    /**
     * Starts the informers of {@code kinds} that are not running yet, without waiting: a controller lists while it
     * connects to its databases, and {@link #sync} waits later.
     */
    public synchronized List<SharedIndexInformer<?>> start(List<Class<? extends HasMetadata>> kinds) {
        List<SharedIndexInformer<?>> wanted = new ArrayList<>(kinds.size());
        for (Class<? extends HasMetadata> kind : kinds) {
            SharedIndexInformer<?> informer = informer(kind);
            if (started.add(kind)) {
                informer.start();
            }
            wanted.add(informer);
        }
        return wanted;
    }

    /** {@link #informer} of {@code kind}, after {@link #sync} of it; throws when it does not sync in time. */
    public <T extends HasMetadata> SharedIndexInformer<T> synced(Class<T> kind, Duration timeout)
            throws InterruptedException {
        if (!sync(timeout, List.of(kind))) {
            throw new IllegalStateException(kind.getSimpleName() + " informer did not sync within " + timeout);
        }
        return informer(kind);
    }

    /** Adds {@code indexers} to {@code kind}'s informer unless an indexer of the same name is there. */
    public synchronized <T extends HasMetadata> void index(
            Class<T> kind, Map<String, Function<T, List<String>>> indexers) {
        SharedIndexInformer<T> informer = informer(kind);
        Map<String, Function<T, List<String>>> missing = new LinkedHashMap<>(indexers);
        missing.keySet().removeAll(informer.getIndexer().getIndexers().keySet());
        if (!missing.isEmpty()) {
            informer.addIndexers(missing);
        }
    }

    /** Stops every informer. */
    @Override
    public synchronized void close() {
        closed = true;
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
        stores.clear();
        started.clear();
    }

    /** The kinds of the started informers that are not watching ({@link Informers#notWatching}). */
    public synchronized List<String> notWatching() {
        return Informers.notWatching(
                started.stream().<SharedIndexInformer<?>>map(informers::get).toList());
    }

    /**
     * What a controller was given: informers shared with others, or its own, which it closes when it closes. Lets
     * {@code start(config, client)} keep working for a controller that runs alone.
     */
    public record Lease(SharedInformers informers, boolean owned) implements AutoCloseable {

        /** Informers owned by the controller that takes the lease. */
        public static Lease own(KubernetesClient client) {
            return new Lease(new SharedInformers(client), true);
        }

        /** Informers shared with others: closing the lease leaves them running. */
        public static Lease shared(SharedInformers informers) {
            return new Lease(informers, false);
        }

        @Override
        public void close() {
            if (owned) {
                informers.close();
            }
        }
    }
}
