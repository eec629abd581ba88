package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.data.Row;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.WeakHashMap;

/**
 * What earlier diffs proved of current rows: a large set column of this row object (an immutable value of the monitor
 * cache) equals this sorted desired set, with these few elements toggled since ({@link Known}). A later diff of the row
 * compares the new desired set with that one: by the change the desired set was made with
 * ({@link io.kovn.ovsdb.data.PatchedValue}), or in a sorted walk (a thousand string compares of two arrays, not a
 * thousand hash look-ups in the cache's layered set). What is known of a row is carried to the row that replaces it
 * through the server's own diff of the update ({@link #carry}): the echo of a write that toggled one address is known
 * equal to the desired set that write was planned from, in O(change). Rows the cache no longer holds are forgotten
 * (weak keys). Thread-safe.
 */
final class SameValues {
    /** Past this many toggles since the proof, a row is compared in full again. */
    static final int MAX_TOGGLED = 64;

    /** A column equals {@code base} with each element of {@code toggled} flipped (present elements gone, others in). */
    record Known(SortedSet<?> base, Set<?> toggled) {}

    private final Map<Row, Map<String, Known>> proven = Collections.synchronizedMap(new WeakHashMap<>());

    /** What is known of {@code row}'s {@code column}, or null. */
    Known of(Row row, String column) {
        synchronized (proven) {
            Map<String, Known> columns = proven.get(row);
            return columns == null ? null : columns.get(column);
        }
    }

    /** Records that {@code row}'s {@code column} equals {@code value}, when that is a large naturally sorted set. */
    void record(Row row, String column, Object value) {
        if (value instanceof SortedSet<?> sorted && sorted.comparator() == null && sorted.size() >= AtomSet.LARGE) {
            synchronized (proven) {
                proven.computeIfAbsent(row, r -> new HashMap<>(2)).put(column, new Known(sorted, Set.of()));
            }
        }
    }

    /**
     * Carries what is known of each updated row to its new row object, through the elements the server said each set
     * column toggled; a column the update rewrote without a diff is no longer known. Call it with every update of the
     * monitor cache, before anything may plan from the updated rows.
     */
    void carry(CacheUpdate update) {
        for (RowChange c : update.changes()) {
            if (!(c instanceof RowChange.Updated u) || u.columnDiffs() == null) {
                continue; // an update sent as whole rows carries nothing
            }
            Map<String, Known> now;
            synchronized (proven) {
                Map<String, Known> was = proven.get(u.old());
                if (was == null) {
                    continue;
                }
                now = new HashMap<>(2);
                for (Map.Entry<String, Known> e : was.entrySet()) {
                    Known known = e.getValue();
                    Object diff = u.columnDiffs().get(e.getKey());
                    if (diff == null) {
                        now.put(e.getKey(), known); // the column did not change
                    } else if (diff instanceof Set<?> toggled
                            && known.toggled().size() + toggled.size() <= MAX_TOGGLED) {
                        now.put(e.getKey(), new Known(known.base(), flipped(known.toggled(), toggled)));
                    }
                }
                if (!now.isEmpty()) {
                    proven.put(u.row(), now);
                }
            }
        }
    }

    /** The elements in exactly one of the two sets. */
    private static Set<?> flipped(Set<?> a, Set<?> b) {
        Set<Object> out = new HashSet<>(a);
        for (Object o : b) {
            if (!out.remove(o)) {
                out.add(o);
            }
        }
        return Set.copyOf(out);
    }
}
