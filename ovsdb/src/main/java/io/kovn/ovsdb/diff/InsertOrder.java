package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.ops.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Orders inserts so that a row comes after the rows it refers to by named uuid. Pure. */
final class InsertOrder {
    private InsertOrder() {}

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

    private static void visit(Operation.Insert i, Map<String, Operation.Insert> byName, Set<String> done,
            Set<String> visiting, List<Operation.Insert> out) {
        if (done.contains(i.uuidName()) || !visiting.add(i.uuidName())) {
            return; // done, or a cycle: OVSDB resolves forward references within a transaction
        }
        List<Operation.Insert> deps = new ArrayList<>();
        i.row().values().forEach(v -> Values.namedUuids(v, n -> {
            Operation.Insert d = byName.get(n.name());
            if (d != null) {
                deps.add(d);
            }
        }));
        deps.sort(java.util.Comparator.comparing(Operation.Insert::uuidName, InsertOrder::byNumber));
        for (Operation.Insert d : deps) {
            visit(d, byName, done, visiting, out);
        }
        visiting.remove(i.uuidName());
        done.add(i.uuidName());
        out.add(i);
    }
}
