package io.kovn.policy.model;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable sorted map of rows by key: {@link DesiredPolicyState} takes one as it is, so an
 * incremental translation hands over a table that did not change without copying it again (a pod
 * relabel changes address sets, not the 5,000 ACLs).
 *
 * @param <V> the row type
 */
public final class FrozenRows<V> extends AbstractMap<String, V> implements SortedMap<String, V> {
    private final SortedMap<String, V> rows;

    private FrozenRows(SortedMap<String, V> copy) {
        this.rows = Collections.unmodifiableSortedMap(copy);
    }

    /** {@code rows} itself when already frozen, else a copy. */
    public static <V> FrozenRows<V> of(SortedMap<String, V> rows) {
        return rows instanceof FrozenRows<V> frozen ? frozen : new FrozenRows<>(new TreeMap<>(rows));
    }

    @Override
    public V get(Object key) {
        return rows.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return rows.containsKey(key);
    }

    @Override
    public int size() {
        return rows.size();
    }

    @Override
    public Comparator<? super String> comparator() {
        return rows.comparator();
    }

    @Override
    public SortedMap<String, V> subMap(String fromKey, String toKey) {
        return rows.subMap(fromKey, toKey);
    }

    @Override
    public SortedMap<String, V> headMap(String toKey) {
        return rows.headMap(toKey);
    }

    @Override
    public SortedMap<String, V> tailMap(String fromKey) {
        return rows.tailMap(fromKey);
    }

    @Override
    public String firstKey() {
        return rows.firstKey();
    }

    @Override
    public String lastKey() {
        return rows.lastKey();
    }

    @Override
    public Set<String> keySet() {
        return rows.keySet();
    }

    @Override
    public Collection<V> values() {
        return rows.values();
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return rows.entrySet();
    }
}
