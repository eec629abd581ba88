package io.kovn.ovsdb.diff;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The complete desired rows of one owner, for several tables at once, each row under its key. A table named here is in
 * the reconcile's scope even when it has no desired row: the owner's rows there are then all stale. Built by a pure
 * function of a snapshot; immutable.
 *
 * @param tables table name to its scope (in the order declared)
 */
public record DesiredState(Map<String, TableState> tables) {

    /**
     * The desired rows of one table.
     *
     * @param key how rows of the table are keyed
     * @param rows key to desired row, sorted by key
     * @param scope the keys in scope when only some are (the owner's rows under other keys are then not this
     *     reconcile's: neither compared nor stale); empty for the whole table
     */
    public record TableState(RowKey key, Map<String, Desired> rows, Optional<Set<String>> scope) {
        public TableState {
            Objects.requireNonNull(key, "key");
            rows = Collections.unmodifiableMap(new TreeMap<>(rows));
            scope = scope.map(Set::copyOf);
            if (scope.isPresent() && !scope.get().containsAll(rows.keySet())) {
                throw new IllegalArgumentException("desired rows outside the table's scope " + scope.get());
            }
        }

        /** The whole table in scope. */
        public TableState(RowKey key, Map<String, Desired> rows) {
            this(key, rows, Optional.empty());
        }
    }

    public DesiredState {
        tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    }

    /** A builder; tables keep the order in which they are first named. */
    public static Builder builder() {
        return new Builder();
    }

    /** The total number of desired rows. */
    public int size() {
        return tables.values().stream().mapToInt(t -> t.rows().size()).sum();
    }

    /** Collects tables and rows; rejects two rows with the same key in a table. */
    public static final class Builder {
        private final Map<String, RowKey> keys = new LinkedHashMap<>();
        private final Map<String, Map<String, Desired>> rows = new LinkedHashMap<>();
        private final Map<String, Set<String>> scopes = new LinkedHashMap<>();

        private Builder() {}

        /** Puts a table in scope, keyed by {@code external_ids:k8s.ovn.org/id} unless keyed otherwise already. */
        public Builder table(String table) {
            return keys.containsKey(table) ? this : table(table, RowKey.externalId());
        }

        /** Puts a table in scope with its key function (e.g. {@code RowKey.column("name")}). */
        public Builder table(String table, RowKey key) {
            if (rows.containsKey(table) && !rows.get(table).isEmpty()) {
                throw new IllegalStateException("key the table " + table + " before adding its rows");
            }
            keys.put(table, Objects.requireNonNull(key, "key"));
            rows.computeIfAbsent(table, t -> new LinkedHashMap<>());
            return this;
        }

        /**
         * Puts only some keys of a table in scope: the diff reads just the current rows under these keys (through an
         * index where the current state has one) and leaves the owner's rows under other keys alone. For a reconcile of
         * one object among many, e.g. one pod's switch port; a key in scope without a desired row is stale.
         */
        public Builder scope(String table, RowKey key, Collection<String> inScope) {
            table(table, key);
            scopes.put(table, Set.copyOf(inScope));
            return this;
        }

        /** Adds a desired row under the key its table's key function gives it. */
        public Builder add(Desired row) {
            if (!keys.containsKey(row.table())) {
                table(row.table());
            }
            String key = keys.get(row.table()).of(row.columns());
            if (key == null) {
                throw new IllegalArgumentException("desired " + row.table() + " row has no key: " + row.columns());
            }
            return add(key, row);
        }

        /** Adds a typed desired row. */
        public Builder add(TypedRow row) {
            return add(Desired.of(row));
        }

        private Builder add(String key, Desired row) {
            if (!keys.containsKey(row.table())) {
                table(row.table());
            }
            if (rows.get(row.table()).putIfAbsent(key, row) != null) {
                throw new IllegalArgumentException("two desired " + row.table() + " rows with key " + key);
            }
            return this;
        }

        public DesiredState build() {
            Map<String, TableState> t = new LinkedHashMap<>();
            keys.forEach((table, key) ->
                    t.put(table, new TableState(key, rows.get(table), Optional.ofNullable(scopes.get(table)))));
            return new DesiredState(t);
        }
    }
}
