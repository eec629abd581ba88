package io.kovn.policy;

import io.kovn.policy.select.ClusterIndex;
import io.kovn.policy.select.Selection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Parts of a translation kept from one translation to the next: each value is stored with the inputs it was computed
 * from and the {@link Selection}s it read from the {@link ClusterIndex}. A value is reused while its inputs are equal
 * and none of its selections changed ({@link #forget}); so a pod relabel re-translates only the rules whose peers or
 * subjects could select the pod. Single-threaded, like the index it reads.
 */
public final class TranslationMemo {
    /** A value, what it was computed from, the values its computation asked for, and when it was last used. */
    private static final class Entry {
        Object inputs;
        final Set<Selection> reads;
        final Object value;
        final List<Entry> nested;
        long used;

        Entry(Object inputs, Set<Selection> reads, Object value, List<Entry> nested) {
            this.inputs = inputs;
            this.reads = reads;
            this.value = value;
            this.nested = nested;
        }

        Object inputs() {
            return inputs;
        }

        Set<Selection> reads() {
            return reads;
        }

        Object value() {
            return value;
        }
    }

    private final ClusterIndex index;
    private final Map<Object, Entry> entries = new HashMap<>();
    /** Selection → keys of the entries that read it. */
    private final Map<Selection, Set<Object>> readers = new HashMap<>();
    /** The current round (one translation); entries not used in a round are swept after it. */
    private long round = 1;
    /** The nested entries of the computations in progress, innermost first. */
    private final ArrayDeque<List<Entry>> computing = new ArrayDeque<>();

    private final Map<Class<?>, Object> kept = new HashMap<>();
    private long hits;
    private long misses;

    private TranslationMemo(ClusterIndex index) {
        this.index = index;
    }

    /** A memo over {@code index}. */
    public static TranslationMemo over(ClusterIndex index) {
        return new TranslationMemo(Objects.requireNonNull(index, "index"));
    }

    /** A memo that keeps nothing: every {@link #get} computes. */
    public static TranslationMemo none() {
        return new TranslationMemo(null);
    }

    /**
     * The value for {@code key}: the stored one if it was computed from equal {@code inputs} and nothing it read has
     * changed since, else {@code compute}'s (stored with what it reads).
     */
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Object inputs, Supplier<T> compute) {
        if (index == null) {
            return compute.get();
        }
        Entry e = entries.get(key);
        if (e != null && sameInputs(e.inputs(), inputs)) {
            // Equal but not the same objects (an ANP whose status was written is a new object with
            // the same spec): keep the new ones, so the next comparison is by pointer again instead
            // of walking the rules, and the old objects are let go.
            e.inputs = inputs;
            hits++;
            markUsed(e);
            index.reread(e.reads()); // an enclosing value depends on them too
            if (!computing.isEmpty()) {
                computing.peek().add(e);
            }
            return (T) e.value();
        }
        misses++;
        if (e != null) {
            entries.remove(key);
            unlink(key, e);
        }
        Set<Selection> reads = new HashSet<>();
        List<Entry> nested = new ArrayList<>();
        computing.push(nested);
        T value;
        try {
            value = index.recording(reads, compute);
        } finally {
            computing.pop();
        }
        Entry made = new Entry(inputs, reads, value, nested);
        made.used = round;
        entries.put(key, made);
        if (!computing.isEmpty()) {
            computing.peek().add(made);
        }
        for (Selection s : reads) {
            readers.computeIfAbsent(s, x -> new HashSet<>()).add(key);
        }
        return value;
    }

    /**
     * Equal inputs, the same objects first: inputs are mostly lists of the objects a translation was made from (rule
     * shapes, specs), which stay the same objects while unchanged, and a list's own equals would compare their whole
     * trees.
     */
    private static boolean sameInputs(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a instanceof List<?> x
                && b instanceof List<?> y
                && x.size() == y.size()
                && x instanceof RandomAccess
                && y instanceof RandomAccess) {
            for (int i = 0; i < x.size(); i++) {
                Object p = x.get(i);
                Object q = y.get(i);
                if (p != q && !Objects.equals(p, q)) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    /** A reused value keeps the values it was made of (they are reused with it next time). */
    private void markUsed(Entry e) {
        if (e.used != round) {
            e.used = round;
            e.nested.forEach(this::markUsed);
        }
    }

    /** Drops every value that read one of {@code changed}; returns their keys. */
    public Set<Object> forget(Set<Selection> changed) {
        Set<Object> forgotten = new HashSet<>();
        for (Selection s : changed) {
            Set<Object> keys = readers.remove(s);
            if (keys != null) {
                for (Object key : keys) {
                    Entry e = entries.remove(key);
                    if (e != null) {
                        unlink(key, e);
                        forgotten.add(key);
                    }
                }
            }
        }
        return forgotten;
    }

    /** Drops the values no {@link #get} asked for since the last sweep (deleted policies and rules). */
    public void sweep() {
        if (index == null) {
            return;
        }
        for (var it = entries.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().used != round) {
                it.remove();
                unlink(e.getKey(), e.getValue());
            }
        }
        round++;
    }

    private void unlink(Object key, Entry e) {
        for (Selection s : e.reads()) {
            Set<Object> keys = readers.get(s);
            if (keys != null) {
                keys.remove(key);
                if (keys.isEmpty()) {
                    readers.remove(s);
                }
            }
        }
    }

    /**
     * An object kept from one translation to the next (one per type), made on first use; a memo that keeps nothing
     * makes a new one every time.
     */
    public <T> T kept(Class<T> type, Supplier<T> make) {
        if (index == null) {
            return make.get();
        }
        return type.cast(kept.computeIfAbsent(type, t -> make.get()));
    }

    /** Values reused since creation. */
    public long hits() {
        return hits;
    }

    /** Values computed since creation. */
    public long misses() {
        return misses;
    }

    /** Values held now. */
    public int size() {
        return entries.size();
    }
}
