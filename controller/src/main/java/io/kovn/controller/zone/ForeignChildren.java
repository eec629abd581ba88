package io.kovn.controller.zone;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.topology.DesiredRow;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Owner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps other owners' children in kovn's parents. The cluster router and the switches are kovn's, but another
 * controller (or an operator) may hang its own ports or static routes on them; a desired reference column states the
 * whole set, so the current references to rows kovn does not own are added to it — otherwise removing the reference
 * would garbage-collect their rows. Pure.
 */
final class ForeignChildren {
    private ForeignChildren() {}

    /**
     * @param rows the desired rows (parents with reference columns among them)
     * @param columns parent table to its reference columns and the child table each refers to
     * @param current the current rows
     * @param owner kovn's owner
     */
    static List<DesiredRow> preserve(
            List<DesiredRow> rows, Map<String, Map<String, String>> columns, CurrentState current, Owner owner) {
        Map<String, Map<String, Row>> ownedByKey = new HashMap<>();
        Map<String, Set<Uuid>> foreignUuids = new HashMap<>();
        List<DesiredRow> out = new ArrayList<>(rows.size());
        for (DesiredRow r : rows) {
            Map<String, String> refColumns = columns.get(r.table());
            if (refColumns == null) {
                out.add(r);
                continue;
            }
            Row cur = ownedByKey
                    .computeIfAbsent(r.table(), t -> index(current.rows(t).orElse(List.of()), owner))
                    .get(r.key());
            if (cur == null) {
                out.add(r);
                continue;
            }
            Map<String, Object> cols = new HashMap<>(r.columns());
            refColumns.forEach((column, childTable) -> {
                Set<Uuid> foreign = foreignUuids.computeIfAbsent(
                        childTable, t -> foreign(current.rows(t).orElse(List.of()), owner));
                Set<Object> keep = new HashSet<>();
                if (cur.get(column) instanceof Collection<?> refs) {
                    refs.stream().filter(foreign::contains).forEach(keep::add);
                }
                if (!keep.isEmpty() && cols.get(column) instanceof Collection<?> desired) {
                    keep.addAll(desired);
                    cols.put(column, Set.copyOf(keep));
                }
            });
            out.add(new DesiredRow(r.table(), r.key(), cols));
        }
        return out;
    }

    private static Map<String, Row> index(Collection<Row> rows, Owner owner) {
        Map<String, Row> m = new HashMap<>();
        for (Row r : rows) {
            if (owner.owns(r) && r.stringMap(ObjectId.EXTERNAL_IDS_COLUMN).get(ObjectId.ID_KEY) instanceof String id) {
                m.putIfAbsent(id, r);
            }
        }
        return m;
    }

    private static Set<Uuid> foreign(Collection<Row> rows, Owner owner) {
        Set<Uuid> s = new HashSet<>();
        for (Row r : rows) {
            if (!owner.owns(r)) {
                s.add(r.uuid());
            }
        }
        return s;
    }
}
