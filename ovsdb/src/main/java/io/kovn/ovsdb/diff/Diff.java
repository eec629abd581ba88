package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.cache.DatabaseCache;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The ownership diff: the minimal operations that take one owner's current rows to its desired rows. Pure (rows in,
 * operations out); {@link DatabaseReconciler} applies the result in one transaction.
 *
 * <ul>
 *   <li>a desired row without a current owned row with its key is inserted (with a uuid-name, so other rows of the
 *       transaction can refer to it);
 *   <li>an existing row gets an update of only its changed columns, and mutations of set and map columns when inserting
 *       and deleting the changed elements is smaller than a rewrite;
 *   <li>owned rows whose key is not desired (or that duplicate a key) are stale: root rows are deleted; non-root rows
 *       are removed by deleting the references to them (ovsdb-server then garbage-collects them), from parents outside
 *       the reconcile with a mutate;
 *   <li>rows the {@link Owner} does not match are never updated or deleted;
 *   <li>a table scoped to some keys ({@link DesiredState.Builder#scope}) is diffed under those keys only: the owner's
 *       rows under other keys are left alone.
 * </ul>
 */
public final class Diff {
    private final DatabaseSchema schema;
    private final Ownership owner;
    private final DesiredState desired;
    private final CurrentState current;
    /** What earlier diffs proved of current rows (null: nothing kept). */
    private final SameValues same;

    /** Per scope table: key to the owned current row that realises it. */
    private final Map<String, Map<String, Row>> existing = new HashMap<>();
    /** Per scope table: owned current rows that are not desired. */
    private final Map<String, List<Row>> stale = new LinkedHashMap<>();
    /** Every stale row's uuid. */
    private final Set<Uuid> staleUuids = new HashSet<>();
    /** Current rows by uuid of the tables attachments point into, indexed on first use. */
    private final Map<String, Map<Uuid, Row>> rowsByUuid = new HashMap<>();
    /** Per scope table: key to the uuid-name of its insert. */
    private final Map<String, Map<String, String>> inserts = new HashMap<>();
    /** {@link #resolve}, made once: it is applied to every desired atom. */
    private final Function<Object, Object> resolver = this::resolve;

    private Diff(DatabaseSchema schema, Ownership owner, DesiredState desired, CurrentState current, SameValues same) {
        this.schema = schema;
        this.owner = owner;
        this.desired = desired;
        this.current = current;
        this.same = same;
    }

    /**
     * Computes the plan.
     *
     * @param schema the database schema (root tables, column types, references)
     * @param owner which current rows the reconcile owns
     * @param desired the owner's complete desired rows
     * @param current the current rows, normally the monitor cache
     * @throws IllegalArgumentException for desired rows that cannot be realised: an unknown column, a reference to a
     *     row that is not desired, a new non-root row nothing references
     */
    public static Plan of(DatabaseSchema schema, Ownership owner, DesiredState desired, CurrentState current) {
        return new Diff(schema, owner, desired, current, null).plan();
    }

    /**
     * {@link #of(DatabaseSchema, Ownership, DesiredState, CurrentState)}, using and adding to what {@code same} knows.
     */
    static Plan of(
            DatabaseSchema schema, Ownership owner, DesiredState desired, CurrentState current, SameValues same) {
        return new Diff(schema, owner, desired, current, same).plan();
    }

    /** {@link #of(DatabaseSchema, Owner, DesiredState, CurrentState)} against a monitor cache. */
    public static Plan of(DatabaseSchema schema, Ownership owner, DesiredState desired, DatabaseCache cache) {
        return of(schema, owner, desired, CurrentState.of(cache));
    }

    private Plan plan() {
        matchRows();
        List<Operation.Insert> newRows = new ArrayList<>();
        List<Operation> updates = new ArrayList<>();
        List<Operation> mutates = new ArrayList<>();
        ParentMutations parents = new ParentMutations();
        Set<String> referenced = new HashSet<>();

        desired.tables().forEach((table, state) -> {
            TableSchema ts = schema.require(table);
            Map<String, Row> have = existing.get(table);
            Map<String, String> names = inserts.get(table);
            state.rows().forEach((key, row) -> {
                Row cur = have.get(key);
                // one pass per row: resolve, validate, collect named uuids, and (for an insert) build the row
                Map<String, Object> columns = resolveRow(ts, state, key, row, cur == null, referenced);
                Object self = cur != null ? cur.uuid() : new NamedUuid(names.get(key));
                for (Attachment a : row.attachments()) {
                    if (!parentHolds(a, self)) {
                        parents.attach(a.table(), a.parent(), a.column(), self);
                    }
                    if (self instanceof NamedUuid n) {
                        referenced.add(n.name());
                    }
                }
                if (cur == null) {
                    newRows.add(new Operation.Insert(table, columns, names.get(key)));
                } else {
                    changes(ts, cur, columns, updates, mutates);
                }
            });
        });
        for (Operation.Insert i : newRows) {
            if (!schema.require(i.table()).isRoot() && !referenced.contains(i.uuidName())) {
                throw new IllegalArgumentException("new " + i.table() + " row " + keyOf(i)
                        + " is referenced by no desired row and no attachment: ovsdb-server would drop it");
            }
        }

        List<Operation> deletes = new ArrayList<>();
        Map<String, Set<Uuid>> staleChildren = new HashMap<>();
        stale.forEach((table, rows) -> {
            if (schema.require(table).isRoot()) {
                rows.forEach(r -> deletes.add(Ops.delete(table, r.uuid())));
            } else if (!rows.isEmpty()) {
                Set<Uuid> uuids = staleChildren.computeIfAbsent(table, t -> new HashSet<>());
                rows.forEach(r -> uuids.add(r.uuid()));
            }
        });
        if (!staleChildren.isEmpty()) {
            detach(staleChildren, parents);
        }

        List<Operation> ops = new ArrayList<>(InsertOrder.sort(schema, newRows));
        ops.addAll(updates);
        ops.addAll(mutates);
        ops.addAll(parents.operations());
        ops.addAll(deletes);
        return Plan.of(ops);
    }

    private static final Comparator<Row> BY_UUID = Comparator.comparing(Row::uuid);

    /** Splits each scope table's owned rows into those realising a desired key, and stale ones. */
    private void matchRows() {
        int[] names = {0};
        desired.tables().forEach((table, state) -> {
            schema.require(table);
            Collection<Row> rows = currentRows(table, state);
            Map<String, Row> byKey = new HashMap<>();
            List<Row> old = new ArrayList<>();
            List<Row> owned = new ArrayList<>(rows.size());
            for (Row r : rows) {
                if (owner.owns(r)) {
                    owned.add(r);
                }
            }
            owned.sort(BY_UUID); // of two rows under one key, the same one is kept on every diff
            for (Row r : owned) {
                String key = state.key().of(r.columns());
                if (key != null && state.rows().containsKey(key) && !byKey.containsKey(key)) {
                    byKey.put(key, r);
                } else {
                    old.add(r);
                }
            }
            Map<String, String> named = new HashMap<>();
            state.rows().keySet().forEach(k -> {
                if (!byKey.containsKey(k)) {
                    named.put(k, "row" + names[0]++);
                }
            });
            old.forEach(r -> staleUuids.add(r.uuid()));
            existing.put(table, byKey);
            stale.put(table, old);
            inserts.put(table, named);
        });
    }

    /** The current rows a table's scope covers: all of them, or those under the scope's keys only. */
    private Collection<Row> currentRows(String table, DesiredState.TableState state) {
        Supplier<IllegalArgumentException> unknown =
                () -> new IllegalArgumentException("no current rows of table " + table + ": is it monitored?");
        if (state.scope().isEmpty()) {
            return current.rows(table).orElseThrow(unknown);
        }
        List<Row> rows = new ArrayList<>();
        for (String key : state.scope().get()) {
            rows.addAll(current.rows(table, state.key(), key).orElseThrow(unknown));
        }
        return rows;
    }

    /**
     * A desired row's columns in canonical form, references resolved, checked against the schema, the owner and the
     * row's key; the named uuids in its uuid columns go to {@code referenced}. For an insert, the row as it is sent:
     * immutable, without empty sets and maps (the defaults); for an update, every stated column in order, empty ones
     * included (they clear the column).
     */
    private Map<String, Object> resolveRow(
            TableSchema ts,
            DesiredState.TableState state,
            String key,
            Desired row,
            boolean insert,
            Set<String> referenced) {
        Map<String, Object> stated = row.columns();
        Map<String, Object> cols = insert ? null : LinkedHashMap.newLinkedHashMap(stated.size());
        @SuppressWarnings("unchecked")
        Map.Entry<String, Object>[] entries = insert ? new Map.Entry[stated.size()] : null;
        int n = 0;
        Object ids = null;
        for (Map.Entry<String, Object> e : stated.entrySet()) {
            String column = e.getKey();
            ColumnSchema c = ts.columns().get(column);
            if (c == null) {
                throw new IllegalArgumentException(where(ts, key, column) + ": no such column");
            }
            Object v;
            try {
                v = DesiredValues.normalize(e.getValue(), c.type(), resolver);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(where(ts, key, column) + ": " + bad.getMessage(), bad);
            }
            if (c.type().holdsUuids()) {
                // only uuid columns can hold named uuids: an address set's thousands of strings are not walked
                DesiredValues.namedUuids(v, u -> referenced.add(u.name()));
            }
            if (column.equals("external_ids")) {
                ids = v;
            }
            if (!insert) {
                cols.put(column, v);
            } else if (!DesiredValues.isEmptyCollection(v)) {
                entries[n++] = Map.entry(column, v);
            }
        }
        Map<String, Object> out =
                insert ? Map.ofEntries(n == entries.length ? entries : Arrays.copyOf(entries, n)) : cols;
        // A row the owner would not recognise, or under another key, would be inserted again forever.
        if (!(ids instanceof Map<?, ?> m) || !owner.owns(m)) {
            throw new IllegalArgumentException(
                    "desired " + ts.name() + " row " + key + " does not carry the owner's external_ids " + owner);
        }
        if (!key.equals(state.key().of(out))) {
            throw new IllegalArgumentException("desired " + ts.name() + " row " + key + " has key "
                    + state.key().of(out) + " by its table's key function");
        }
        return out;
    }

    private static String where(TableSchema ts, String key, String column) {
        return ts.name() + " " + key + " column " + column;
    }

    /** An atom with its {@link Ref} resolved to the current row's uuid or the insert's uuid-name. */
    private Object resolve(Object atom) {
        if (!(atom instanceof Ref ref)) {
            return atom;
        }
        Row row = existing.getOrDefault(ref.table(), Map.of()).get(ref.key());
        if (row != null) {
            return row.uuid();
        }
        String name = inserts.getOrDefault(ref.table(), Map.of()).get(ref.key());
        if (name == null) {
            throw new IllegalArgumentException(ref + " is not a desired row");
        }
        return new NamedUuid(name);
    }

    private void changes(
            TableSchema ts, Row cur, Map<String, Object> columns, List<Operation> updates, List<Operation> mutates) {
        Map<String, Object> rewrite = new LinkedHashMap<>();
        List<Mutation> mutations = new ArrayList<>();
        columns.forEach((column, value) -> {
            SameValues.Known known = same == null ? null : same.of(cur, column);
            switch (ColumnDiff.of(column, ts.type(column), cur.get(column), value, known)) {
                case ColumnDiff.Same s -> {
                    if (same != null) {
                        same.record(cur, column, value);
                    }
                }
                case ColumnDiff.Rewrite r -> rewrite.put(column, r.value());
                case ColumnDiff.Mutate m -> mutations.addAll(m.mutations());
            }
        });
        if (!rewrite.isEmpty()) {
            updates.add(Ops.update(ts.name(), cur.uuid(), rewrite));
        }
        if (!mutations.isEmpty()) {
            mutates.add(Ops.mutate(ts.name(), cur.uuid(), mutations.toArray(Mutation[]::new)));
        }
    }

    private boolean parentHolds(Attachment a, Object child) {
        if (!(child instanceof Uuid)) {
            return false;
        }
        Row parent = rowsByUuid
                .computeIfAbsent(a.table(), t -> {
                    Map<Uuid, Row> m = new HashMap<>();
                    current.rows(t).orElse(List.of()).forEach(r -> m.put(r.uuid(), r));
                    return m;
                })
                .get(a.parent());
        return parent != null && parent.get(a.column()) instanceof Collection<?> c && c.contains(child);
    }

    /**
     * Removes the references to stale non-root rows from parents that this diff does not already rewrite: parents
     * outside the scope, and owned parents whose desired row leaves the column alone. One scan of each table that can
     * refer to a stale row's table.
     */
    private void detach(Map<String, Set<Uuid>> staleChildren, ParentMutations parents) {
        for (TableSchema p : schema.tables().values()) {
            for (var c : p.columns().values()) {
                ColumnType t = c.type();
                Set<Uuid> keyRefs = t.key().strongRef() && t.key().refTable() != null
                        ? staleChildren.getOrDefault(t.key().refTable(), Set.of())
                        : Set.of();
                Set<Uuid> valueRefs =
                        t.isMap() && t.value().strongRef() && t.value().refTable() != null
                                ? staleChildren.getOrDefault(t.value().refTable(), Set.of())
                                : Set.of();
                if (keyRefs.isEmpty() && valueRefs.isEmpty()) {
                    continue;
                }
                for (Row parent : current.rows(p.name()).orElse(List.of())) {
                    Object v = parent.get(c.name());
                    if (v == null || rewritesColumn(p.name(), parent, c.name())) {
                        continue;
                    }
                    switch (v) {
                        case Set<?> s ->
                            s.forEach(e -> {
                                if (keyRefs.contains(e)) {
                                    parents.detachElement(p.name(), parent.uuid(), c.name(), e);
                                }
                            });
                        case Map<?, ?> m ->
                            m.forEach((k, x) -> {
                                if (keyRefs.contains(k)) {
                                    parents.detachElement(p.name(), parent.uuid(), c.name(), k);
                                } else if (valueRefs.contains(x)) {
                                    parents.detachPair(p.name(), parent.uuid(), c.name(), k, x);
                                }
                            });
                        default -> {
                            if (keyRefs.contains(v)) {
                                throw new IllegalStateException("stale row " + v + " is the required "
                                        + c.name() + " of " + p.name() + " " + parent.uuid()
                                        + ": it cannot be removed without that parent");
                            }
                        }
                    }
                }
            }
        }
    }

    /** Whether this diff already decides the parent's column: an owned scope row, desired with it, or stale. */
    private boolean rewritesColumn(String table, Row parent, String column) {
        var state = desired.tables().get(table);
        if (state == null || !owner.owns(parent)) {
            return false;
        }
        if (staleUuids.contains(parent.uuid())) {
            return true;
        }
        String key = state.key().of(parent.columns());
        Desired d = key == null ? null : state.rows().get(key);
        return d != null && d.columns().containsKey(column);
    }

    private String keyOf(Operation.Insert insert) {
        return inserts.get(insert.table()).entrySet().stream()
                .filter(e -> e.getValue().equals(insert.uuidName()))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(insert.uuidName());
    }
}
