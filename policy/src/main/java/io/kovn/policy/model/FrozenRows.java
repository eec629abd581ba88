package io.kovn.policy.model;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable sorted map of rows by key: {@link DesiredPolicyState} takes one as it is, so an incremental translation
 * hands over a table that did not change without copying it again (a pod relabel changes address sets, not the 5,000
 * ACLs).
 *
 * <p>A table with a few changed rows is the previous table plus those rows ({@link #with}): a relabel that changes 90
 * of 2,500 address sets does not copy the other 2,410 into a new tree. Lookups read the changes, then the previous
 * table; walking the rows in order makes the merged tree once, on first use. Changes pile up on one flat table until
 * there are {@value #MOST_CHANGES}, then the next table is flat again, so no lookup goes through more than one level.
 *
 * @param <V> the row type
 */
public final class FrozenRows<V> extends AbstractMap<String, V> implements SortedMap<String, V> {
    static final int MOST_CHANGES = 256;
    /** A removed row in {@link #changes}. */
    private static final Object REMOVED = new Object();

    /** The flat table this one changes; null when this one is flat. */
    private final FrozenRows<V> base;
    /** Key to its row, or {@link #REMOVED}, for the keys that differ from {@link #base}. */
    private final Map<String, Object> changes;

    private final int size;
    /** The rows in order; of an overlay, made on first use (any thread makes the same tree). */
    private volatile SortedMap<String, V> rows;

    private FrozenRows(SortedMap<String, V> copy) {
        this.base = null;
        this.changes = Map.of();
        this.size = copy.size();
        this.rows = Collections.unmodifiableSortedMap(copy);
    }

    private FrozenRows(FrozenRows<V> base, Map<String, Object> changes, int size) {
        this.base = base;
        this.changes = changes;
        this.size = size;
    }

    /** {@code rows} itself when already frozen, else a copy. */
    public static <V> FrozenRows<V> of(SortedMap<String, V> rows) {
        return rows instanceof FrozenRows<V> frozen ? frozen : new FrozenRows<>(new TreeMap<>(rows));
    }

    /**
     * The rows of {@code now}, given that it differs from these rows at most in {@code keys}: these rows when no key
     * changed, else these plus the changed keys' rows (or a flat copy of {@code now} once the changes grow large).
     */
    public FrozenRows<V> with(SortedMap<String, V> now, Collection<String> keys) {
        if (keys.isEmpty()) {
            return this;
        }
        int carried = base == null ? 0 : changes.size();
        if (carried + keys.size() > MOST_CHANGES) {
            return new FrozenRows<>(new TreeMap<>(now));
        }
        Map<String, Object> merged = new HashMap<>(base == null ? Map.of() : changes);
        int n = size;
        for (String key : keys) {
            V row = now.get(key);
            n += (row != null ? 1 : 0) - (containsKey(key) ? 1 : 0);
            merged.put(key, row == null ? REMOVED : row);
        }
        return new FrozenRows<>(base == null ? this : base, merged, n);
    }

    private SortedMap<String, V> rows() {
        SortedMap<String, V> made = rows;
        if (made == null) {
            TreeMap<String, V> tree = new TreeMap<>(base.rows());
            for (Map.Entry<String, Object> e : changes.entrySet()) {
                if (e.getValue() == REMOVED) {
                    tree.remove(e.getKey());
                } else {
                    tree.put(e.getKey(), cast(e.getValue()));
                }
            }
            rows = made = Collections.unmodifiableSortedMap(tree);
        }
        return made;
    }

    @SuppressWarnings("unchecked")
    private static <V> V cast(Object row) {
        return (V) row;
    }

    @Override
    public V get(Object key) {
        if (base == null) {
            return rows.get(key);
        }
        Object changed = changes.get(key);
        return changed == null ? base.get(key) : changed == REMOVED ? null : cast(changed);
    }

    @Override
    public boolean containsKey(Object key) {
        if (base == null) {
            return rows.containsKey(key);
        }
        Object changed = changes.get(key);
        return changed == null ? base.containsKey(key) : changed != REMOVED;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Comparator<? super String> comparator() {
        return null; // natural order, as every table's TreeMap
    }

    @Override
    public SortedMap<String, V> subMap(String fromKey, String toKey) {
        return rows().subMap(fromKey, toKey);
    }

    @Override
    public SortedMap<String, V> headMap(String toKey) {
        return rows().headMap(toKey);
    }

    @Override
    public SortedMap<String, V> tailMap(String fromKey) {
        return rows().tailMap(fromKey);
    }

    @Override
    public String firstKey() {
        return rows().firstKey();
    }

    @Override
    public String lastKey() {
        return rows().lastKey();
    }

    @Override
    public Set<String> keySet() {
        return rows().keySet();
    }

    @Override
    public Collection<V> values() {
        return rows().values();
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return rows().entrySet();
    }
}
