package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.Uuid;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One desired row: its table and the columns the reconcile states, in canonical form (see
 * {@link io.kovn.ovsdb.data.Row}), where {@link Ref} may stand for any uuid atom. Columns not stated are left as they
 * are (e.g. columns ovn-northd writes). Immutable.
 *
 * <pre>{@code
 * Desired pg = Desired.of(PortGroup.newRow().withName(pgName).withExternalIds(ids))
 *         .withRefs(PortGroup.ACLS, Ref.to(Acl.TABLE_NAME, aclId))
 *         .ignoring(PortGroup.PORTS);
 * }</pre>
 *
 * @param table the table
 * @param columns the stated columns
 * @param attachments parents outside the reconcile that must reference this row
 */
public record Desired(String table, Map<String, Object> columns, List<Attachment> attachments) {
    public Desired {
        Objects.requireNonNull(table, "table");
        columns.forEach((c, v) -> {
            if (v == null) {
                throw new IllegalArgumentException("desired " + table + " column " + c + " is null");
            }
        });
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        attachments = List.copyOf(attachments);
    }

    /** A desired row from generic columns. */
    public static Desired of(String table, Map<String, Object> columns) {
        return new Desired(table, columns, List.of());
    }

    /**
     * A desired row from a typed (generated) row: every column it sets ({@link TypedRow#toColumns()}), defaults
     * included. Leave out, with {@link #ignoring}, columns that others write (e.g. ovn-northd's {@code up} and
     * {@code dynamic_addresses} of a logical switch port), or the reconcile would undo them.
     */
    public static Desired of(TypedRow row) {
        return of(row.tableName(), row.toColumns());
    }

    /** This row with one column's value replaced (or added). */
    public Desired with(String column, Object value) {
        Map<String, Object> m = new LinkedHashMap<>(columns);
        m.put(column, Objects.requireNonNull(value, "value"));
        return new Desired(table, m, attachments);
    }

    /** This row with a reference column holding exactly these references (a set or optional column). */
    public Desired withRefs(String column, Ref... refs) {
        return with(column, Set.of(refs));
    }

    /** This row with a reference column holding exactly these references and uuids. */
    public Desired withRefs(String column, Collection<?> refsOrUuids) {
        return with(column, Set.copyOf(refsOrUuids));
    }

    /** This row with a single-reference column pointing at another desired row. */
    public Desired withRef(String column, Ref ref) {
        return with(column, ref);
    }

    /** This row stating only the given columns (others are left as the database has them). */
    public Desired only(String... keep) {
        Set<String> k = Set.of(keep);
        Map<String, Object> m = new LinkedHashMap<>(columns);
        m.keySet().retainAll(k);
        return new Desired(table, m, attachments);
    }

    /** This row not stating the given columns (they are left as the database has them). */
    public Desired ignoring(String... drop) {
        Map<String, Object> m = new LinkedHashMap<>(columns);
        m.keySet().removeAll(Arrays.asList(drop));
        return new Desired(table, m, attachments);
    }

    /** This row, also referenced from {@code column} of a parent row the reconcile does not own. */
    public Desired attachTo(String parentTable, Uuid parent, String column) {
        List<Attachment> a = new ArrayList<>(attachments);
        a.add(new Attachment(parentTable, parent, column));
        return new Desired(table, columns, a);
    }
}
