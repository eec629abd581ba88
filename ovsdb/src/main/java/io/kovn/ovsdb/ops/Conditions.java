package io.kovn.ovsdb.ops;

import io.kovn.ovsdb.data.Row;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates conditions against rows in canonical form, as the server would (RFC 7047 5.1): for client-side filtering
 * where a server cannot (plain {@code monitor}) and for tests.
 */
public final class Conditions {
    private Conditions() {}

    /** Whether every condition holds for the row. */
    public static boolean matches(Row row, List<Condition> where) {
        for (Condition c : where) {
            if (!matches(row, c)) {
                return false;
            }
        }
        return true;
    }

    /** Whether one condition holds for the row; a column the row lacks never matches. */
    public static boolean matches(Row row, Condition c) {
        Object v = c.column().equals("_uuid") ? row.uuid() : row.get(c.column());
        if (v == null) {
            return false;
        }
        Object want = c.value();
        return switch (c.function()) {
            case EQ -> normalize(v).equals(normalize(want));
            case NE -> !normalize(v).equals(normalize(want));
            case INCLUDES -> includes(v, want);
            case EXCLUDES -> excludes(v, want);
            case LT, LE, GT, GE -> compare(v, want, c.function());
        };
    }

    private static Object normalize(Object v) {
        return v instanceof Collection<?> || v instanceof Map<?, ?> ? v : Set.of(v);
    }

    private static boolean includes(Object v, Object want) {
        if (v instanceof Map<?, ?> m && want instanceof Map<?, ?> w) {
            return w.entrySet().stream().allMatch(e -> e.getValue().equals(m.get(e.getKey())));
        }
        Collection<?> have = (Collection<?>) normalize(v);
        Collection<?> need = (Collection<?>) normalize(want);
        return have.containsAll(need);
    }

    private static boolean excludes(Object v, Object want) {
        if (v instanceof Map<?, ?> m && want instanceof Map<?, ?> w) {
            return w.entrySet().stream().noneMatch(e -> e.getValue().equals(m.get(e.getKey())));
        }
        Collection<?> have = (Collection<?>) normalize(v);
        Collection<?> need = (Collection<?>) normalize(want);
        return need.stream().noneMatch(have::contains);
    }

    private static boolean compare(Object v, Object want, Function f) {
        Object a = v instanceof Collection<?> c ? (c.size() == 1 ? c.iterator().next() : null) : v;
        if (!(a instanceof Number x) || !(want instanceof Number y)) {
            return false;
        }
        int cmp = Double.compare(x.doubleValue(), y.doubleValue());
        return switch (f) {
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
            default -> throw new IllegalArgumentException(f.toString());
        };
    }
}
