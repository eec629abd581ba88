package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * What earlier diffs proved of current rows: a large set column of this row object (an immutable value of the monitor
 * cache) equals this sorted desired set, with these few elements toggled since ({@link Known}). A later diff of the row
 * compares the new desired set with that one: by the change the desired set was made with
 * ({@link io.kovn.ovsdb.data.PatchedValue}), or in a sorted walk (a thousand string compares of two arrays, not a
 * thousand hash look-ups in the cache's layered set). What is known of a row is carried to the row that replaces it
 * through the server's own diff of the update ({@link #carry}): the echo of a write that toggled one address is known
 * equal to the desired set that write was planned from, in O(change). Rows the cache no longer holds are forgotten (a
 * row object is held weakly, and found by its uuid and identity: a row's own hashCode and equals walk all its values,
 * and a diff asks for every column of every desired row). Thread-safe.
 */
final class SameValues {
    /** Past this many toggles since the proof, a row is compared in full again. */
    static final int MAX_TOGGLED = 64;

    /** A column equals {@code base} with each element of {@code toggled} flipped (present elements gone, others in). */
    record Known(SortedSet<?> base, Set<?> toggled) {}

    /** What is known of the row object {@code row} refers to, while the cache holds it. */
    private record Proof(WeakReference<Row> row, Map<String, Known> columns) {}

    /** By row uuid; guarded by itself. */
    private final Map<Uuid, Proof> proven = new HashMap<>();
    /** At this size, proofs of row objects already collected are dropped (a reconciler need not {@link #carry}). */
    private int purgeAt = 64;

    /** What is known of {@code row}'s {@code column}, or null. */
    Known of(Row row, String column) {
        synchronized (proven) {
            Proof p = proven.get(row.uuid());
            return p == null || p.row().get() != row ? null : p.columns().get(column);
        }
    }

    /** Records that {@code row}'s {@code column} equals {@code value}, when that is a large naturally sorted set. */
    void record(Row row, String column, Object value) {
        if (value instanceof SortedSet<?> sorted && sorted.comparator() == null && sorted.size() >= AtomSet.LARGE) {
            synchronized (proven) {
                Proof p = proven.get(row.uuid());
                if (p == null || p.row().get() != row) {
                    p = new Proof(new WeakReference<>(row), new HashMap<>(2));
                    proven.put(row.uuid(), p);
                    purge();
                }
                p.columns().put(column, new Known(sorted, Set.of()));
            }
        }
    }

    /**
     * Carries what is known of each updated row to its new row object, through the elements the server said each set
     * column toggled; a column the update rewrote without a diff is no longer known, nor is a deleted row. Call it with
     * every update of the monitor cache, before anything may plan from the updated rows.
     */
    void carry(CacheUpdate update) {
        for (RowChange c : update.changes()) {
            Uuid uuid;
            if (c instanceof RowChange.Updated u) {
                uuid = u.row().uuid();
            } else if (c instanceof RowChange.Deleted d) {
                uuid = d.old().uuid();
            } else {
                continue;
            }
            synchronized (proven) {
                Proof was = proven.remove(uuid);
                if (was == null
                        || !(c instanceof RowChange.Updated u)
                        || u.columnDiffs() == null // an update sent as whole rows carries nothing
                        || was.row().get() != u.old()) {
                    continue;
                }
                Map<String, Known> now = new HashMap<>(2);
                for (Map.Entry<String, Known> e : was.columns().entrySet()) {
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
                    proven.put(uuid, new Proof(new WeakReference<>(u.row()), now));
                }
            }
        }
    }

    /** Drops the proofs of collected row objects once the map has doubled since the last time. */
    private void purge() {
        if (proven.size() >= purgeAt) {
            proven.values().removeIf(p -> p.row().get() == null);
            purgeAt = Math.max(64, 2 * proven.size());
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
