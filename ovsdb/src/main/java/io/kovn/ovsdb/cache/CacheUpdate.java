package io.kovn.ovsdb.cache;

import java.util.List;

/**
 * The changes one applied update made to a cache.
 *
 * @param changes the row changes, grouped by table in no particular table order
 * @param resync whether this update replaced the cache after a (re)connect that could not resume; the changes are then
 *     the difference between the old and the new content
 */
public record CacheUpdate(List<RowChange> changes, boolean resync) {
    public CacheUpdate {
        changes = List.copyOf(changes);
    }

    /** The changes to one table. */
    public List<RowChange> forTable(String table) {
        return changes.stream().filter(c -> c.table().equals(table)).toList();
    }

    /** Whether nothing changed. */
    public boolean isEmpty() {
        return changes.isEmpty();
    }
}
