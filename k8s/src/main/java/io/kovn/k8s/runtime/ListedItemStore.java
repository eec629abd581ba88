package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * An informer's object store that hands out all its objects as one immutable list, rebuilt only after a change, with
 * every object keeping its position until it is deleted.
 *
 * <p>Why: a controller that translates the whole cluster lists 10,000 pods per reconcile; fabric8's own store lists
 * through a stream over a concurrent map (~1 ms at that size without C2), and the list it gets is copied again into the
 * snapshot. Here a reconcile with nothing changed gets the same list object, a changed one a single array copy, and a
 * pod that was replaced is at the position its predecessor held, so comparing two listings position by position finds
 * it.
 *
 * <p>Objects are stored without {@code metadata.managedFields}, which no controller reads and which are a large share
 * of every object (the reference drops them in an informer transform too): a node process holds its cluster's pods in
 * about half the memory.
 *
 * <p>Writes come from the informer (under its cache's lock) and are serialised here as well; {@link #list} may be
 * called from any thread.
 */
public final class ListedItemStore<V extends HasMetadata> implements ItemStore<V> {
    /** For lookups without the lock (informer handlers look objects up from many threads). */
    private final Map<String, V> byKey = new ConcurrentHashMap<>();

    private final Map<String, Integer> positions = new HashMap<>();
    private Object[] items = new Object[16];
    private String[] keys = new String[16];
    private int size;
    /** The last listing; null after a change. */
    private volatile List<V> listed = new Listing<>(new Object[0]);

    @Override
    public String getKey(V object) {
        return Cache.metaNamespaceKeyFunc(object);
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized V put(String key, V object) {
        // the informer's freshly decoded object, not yet handed to anyone
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        Integer at = positions.get(key);
        V old = null;
        if (at != null) {
            old = (V) items[at];
            items[at] = object;
        } else {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
                keys = Arrays.copyOf(keys, size * 2);
            }
            positions.put(key, size);
            items[size] = object;
            keys[size] = key;
            size++;
        }
        byKey.put(key, object);
        listed = null;
        return old;
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized V remove(String key) {
        Integer at = positions.remove(key);
        if (at == null) {
            return null;
        }
        V old = (V) items[at];
        byKey.remove(key);
        int last = --size;
        if (at != last) { // the last object fills the hole: positions stay dense
            items[at] = items[last];
            keys[at] = keys[last];
            positions.put(keys[at], at);
        }
        items[last] = null;
        keys[last] = null;
        listed = null;
        return old;
    }

    /** Every object, in a stable order; the same list object until the next change. */
    public List<V> list() {
        List<V> now = listed;
        return now != null ? now : relist();
    }

    private synchronized List<V> relist() {
        if (listed == null) {
            listed = new Listing<>(Arrays.copyOf(items, size));
        }
        return listed;
    }

    @Override
    public synchronized Stream<String> keySet() {
        return Arrays.stream(Arrays.copyOf(keys, size));
    }

    @Override
    public Stream<V> values() {
        return list().stream();
    }

    @Override
    public int size() {
        return byKey.size();
    }

    @Override
    public V get(String key) {
        return byKey.get(key);
    }

    /**
     * An immutable list over its own copy of the store's array, without the per-element checks of {@code List.of} (the
     * objects are non-null by construction): a consumer that must own an immutable list can keep a {@code Listing} as
     * it is instead of copying it again.
     */
    public static final class Listing<V> extends AbstractList<V> implements RandomAccess {
        private final Object[] items;

        private Listing(Object[] items) {
            this.items = items;
        }

        @Override
        @SuppressWarnings("unchecked")
        public V get(int index) {
            return (V) items[Objects.checkIndex(index, items.length)];
        }

        @Override
        public int size() {
            return items.length;
        }

        @Override
        public Object[] toArray() {
            return Arrays.copyOf(items, items.length);
        }
    }
}
