package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.data.Row;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.WeakHashMap;

/**
 * What earlier diffs proved of current rows: a large set column of this row object (an immutable value of the monitor
 * cache) equals this sorted desired set. A later diff of the same row object, which has not changed since, compares the
 * new desired set with that one in a sorted walk (a pod leaving one address set of 1,000: a thousand string compares of
 * two arrays, not a thousand hash look-ups in the cache's layered set). Any change to the row replaces its object in
 * the cache, and with it the proof; rows the cache no longer holds are forgotten (weak keys). Thread-safe.
 */
final class SameValues {
    private final Map<Row, Map<String, SortedSet<?>>> proven = Collections.synchronizedMap(new WeakHashMap<>());

    /** The sorted set {@code row}'s {@code column} was proven equal to, or null. */
    SortedSet<?> of(Row row, String column) {
        Map<String, SortedSet<?>> columns = proven.get(row);
        return columns == null ? null : columns.get(column);
    }

    /** Records that {@code row}'s {@code column} equals {@code value}, when that is a large naturally sorted set. */
    void record(Row row, String column, Object value) {
        if (value instanceof SortedSet<?> sorted && sorted.comparator() == null && sorted.size() >= AtomSet.LARGE) {
            proven.computeIfAbsent(row, r -> new HashMap<>(2)).put(column, sorted);
        }
    }
}
