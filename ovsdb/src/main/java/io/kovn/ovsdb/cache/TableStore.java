package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Predicate;

/**
 * One table's rows and indexes. Writes happen on the cache's update thread under the database write lock; reads take
 * the read lock, so a reader sees whole updates only.
 */
final class TableStore implements TableCache {
    private final TableSchema schema;
    private final ReadWriteLock lock;
    private final boolean named;
    private final Map<Uuid, Row> rows = new HashMap<>();
    private final Map<String, Set<Uuid>> byName = new HashMap<>();
    private final Map<String, Set<Uuid>> byK8sId = new HashMap<>();

    TableStore(TableSchema schema, ReadWriteLock lock) {
        this.schema = schema;
        this.lock = lock;
        this.named = schema.hasColumn("name");
    }

    TableSchema schema() {
        return schema;
    }

    @Override
    public String name() {
        return schema.name();
    }

    @Override
    public List<Row> rows() {
        lock.readLock().lock();
        try {
            return List.copyOf(rows.values());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public int size() {
        lock.readLock().lock();
        try {
            return rows.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Optional<Row> get(Uuid uuid) {
        lock.readLock().lock();
        try {
            return Optional.ofNullable(rows.get(uuid));
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<Row> byName(String name) {
        return lookup(byName, name);
    }

    @Override
    public List<Row> byExternalId(String key, String value) {
        if (key.equals(K8S_ID)) {
            return lookup(byK8sId, value);
        }
        return select(r -> value.equals(r.stringMap("external_ids").get(key)));
    }

    @Override
    public List<Row> select(Predicate<Row> filter) {
        lock.readLock().lock();
        try {
            return rows.values().stream().filter(filter).toList();
        } finally {
            lock.readLock().unlock();
        }
    }

    private List<Row> lookup(Map<String, Set<Uuid>> index, String key) {
        lock.readLock().lock();
        try {
            Set<Uuid> ids = index.get(key);
            if (ids == null) {
                return List.of();
            }
            List<Row> out = new ArrayList<>(ids.size());
            for (Uuid u : ids) {
                out.add(rows.get(u));
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    // --- writes: caller holds the write lock ---

    Row getUnlocked(Uuid uuid) {
        return rows.get(uuid);
    }

    Collection<Row> valuesUnlocked() {
        return rows.values();
    }

    /** Stores a row; returns the previous value. */
    Row put(Row row) {
        Row old = rows.put(row.uuid(), row);
        if (old == null) {
            index(row);
        } else if (!Objects.equals(old.get("name"), row.get("name")) || !Objects.equals(k8sId(old), k8sId(row))) {
            unindex(old); // most updates (a set's elements) keep the indexed keys: no index entry is made again
            index(row);
        }
        return old;
    }

    /** Removes a row; returns it, or null. */
    Row remove(Uuid uuid) {
        Row old = rows.remove(uuid);
        if (old != null) {
            unindex(old);
        }
        return old;
    }

    void clear() {
        rows.clear();
        byName.clear();
        byK8sId.clear();
    }

    private void index(Row row) {
        if (named) {
            for (String n : names(row)) {
                byName.computeIfAbsent(n, k -> new HashSet<>(2)).add(row.uuid());
            }
        }
        String id = k8sId(row);
        if (id != null) {
            byK8sId.computeIfAbsent(id, k -> new HashSet<>(2)).add(row.uuid());
        }
    }

    private void unindex(Row row) {
        if (named) {
            for (String n : names(row)) {
                remove(byName, n, row.uuid());
            }
        }
        String id = k8sId(row);
        if (id != null) {
            remove(byK8sId, id, row.uuid());
        }
    }

    private static void remove(Map<String, Set<Uuid>> index, String key, Uuid uuid) {
        Set<Uuid> s = index.get(key);
        if (s != null) {
            s.remove(uuid);
            if (s.isEmpty()) {
                index.remove(key);
            }
        }
    }

    private static List<String> names(Row row) {
        Object v = row.get("name");
        if (v instanceof String s) {
            return List.of(s);
        }
        if (v instanceof Set<?> set) {
            List<String> out = new ArrayList<>(set.size());
            for (Object o : set) {
                if (o instanceof String s) {
                    out.add(s);
                }
            }
            return out;
        }
        return List.of();
    }

    private static String k8sId(Row row) {
        Object ext = row.get("external_ids");
        return ext instanceof Map<?, ?> m && m.get(K8S_ID) instanceof String s ? s : null;
    }
}
