package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.schema.DatabaseSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Orders inserts so that a row comes after the rows it refers to by named uuid, for a transaction that reads in order
 * (OVSDB itself resolves forward references). Pure.
 */
final class InsertOrder {
    private InsertOrder() {}

    /**
     * Table by table, each after the tables its columns refer to, rows in their given order: one look at the schema
     * instead of a walk through every inserted value (a zone's first write inserts thousands of rows). Tables that
     * refer to each other or to themselves fall back to {@link #sort(List)}.
     */
    static List<Operation.Insert> sort(DatabaseSchema schema, List<Operation.Insert> inserts) {
        Map<String, List<Operation.Insert>> byTable = new LinkedHashMap<>();
        for (Operation.Insert i : inserts) {
            byTable.computeIfAbsent(i.table(), t -> new ArrayList<>()).add(i);
        }
        if (byTable.size() == 1
                && !refersTo(
                        schema, inserts.getFirst().table(), inserts.getFirst().table())) {
            return inserts;
        }
        List<String> order = new ArrayList<>(byTable.size());
        Set<String> visiting = new HashSet<>();
        for (String table : byTable.keySet()) {
            if (!visitTable(schema, table, byTable.keySet(), visiting, order)) {
                return sort(inserts);
            }
        }
        List<Operation.Insert> out = new ArrayList<>(inserts.size());
        order.forEach(t -> out.addAll(byTable.get(t)));
        return out;
    }

    /** Adds {@code table} after the present tables it refers to; false on a cycle among them. */
    private static boolean visitTable(
            DatabaseSchema schema, String table, Set<String> present, Set<String> visiting, List<String> order) {
        if (order.contains(table)) {
            return true;
        }
        if (!visiting.add(table)) {
            return false;
        }
        for (String other : present) {
            if (refersTo(schema, table, other) && !visitTable(schema, other, present, visiting, order)) {
                return false;
            }
        }
        visiting.remove(table);
        order.add(table);
        return true;
    }

    /** Whether a column of {@code table} can hold a reference to a row of {@code target}. */
    private static boolean refersTo(DatabaseSchema schema, String table, String target) {
        return schema.require(table).columns().values().stream()
                .map(c -> c.type())
                .anyMatch(t -> target.equals(t.key().refTable())
                        || t.value() != null && target.equals(t.value().refTable()));
    }

    /** Row by row, each after the rows its values name: for tables that refer to each other. */
    static List<Operation.Insert> sort(List<Operation.Insert> inserts) {
        Map<String, Operation.Insert> byName = new HashMap<>();
        inserts.forEach(i -> byName.put(i.uuidName(), i));
        List<Operation.Insert> out = new ArrayList<>(inserts.size());
        Set<String> done = new HashSet<>();
        Set<String> visiting = new HashSet<>();
        for (Operation.Insert i : inserts) {
            visit(i, byName, done, visiting, out);
        }
        return out;
    }

    /** Uuid-names are {@code row<n>}: order by n, so the output does not depend on hash order. */
    private static int byNumber(String a, String b) {
        return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }

    private static void visit(
            Operation.Insert i,
            Map<String, Operation.Insert> byName,
            Set<String> done,
            Set<String> visiting,
            List<Operation.Insert> out) {
        if (done.contains(i.uuidName()) || !visiting.add(i.uuidName())) {
            return; // done, or a cycle: OVSDB resolves forward references within a transaction
        }
        List<Operation.Insert> deps = new ArrayList<>();
        i.row()
                .values()
                .forEach(v -> DesiredValues.namedUuids(v, n -> {
                    Operation.Insert d = byName.get(n.name());
                    if (d != null) {
                        deps.add(d);
                    }
                }));
        deps.sort(Comparator.comparing(Operation.Insert::uuidName, InsertOrder::byNumber));
        for (Operation.Insert d : deps) {
            visit(d, byName, done, visiting, out);
        }
        visiting.remove(i.uuidName());
        done.add(i.uuidName());
        out.add(i);
    }
}
