package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.FrozenValue;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.ColumnType;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/** Canonical-value helpers of the diff: normalising desired values and walking atoms. Pure. */
final class DesiredValues {
    private DesiredValues() {}

    /**
     * A desired value in the canonical form of its column type, atoms passed through {@code atom} (which resolves
     * {@link Ref}s): {@code Integer} becomes {@code Long}; a bare atom or an {@code Optional} in a set column becomes a
     * set; a one-element set in a scalar column its atom.
     *
     * @throws IllegalArgumentException for a value of the wrong shape (the caller adds where it is)
     */
    static Object normalize(Object value, ColumnType type, Function<Object, Object> atom) {
        if (type.isMap()) {
            if (!(value instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("expected a map, got " + value);
            }
            if (allPlainAtoms(m)) {
                return Map.copyOf(m); // no copy of an immutable map: every row's external_ids pass as they are
            }
            Map<Object, Object> out = HashMap.newHashMap(m.size());
            m.forEach((k, v) -> out.put(atom(k, atom), atom(v, atom)));
            return Map.copyOf(out);
        }
        if (type.isScalar()) {
            Object a = value;
            if (value instanceof Collection<?> c && c.size() == 1) {
                a = c.iterator().next();
            } else if (value instanceof Optional<?> o && o.isPresent()) {
                a = o.get();
            }
            if (a instanceof Collection<?> || a instanceof Map<?, ?> || a instanceof Optional<?>) {
                throw new IllegalArgumentException("expected one atom, got " + value);
            }
            return atom(a, atom);
        }
        Collection<?> elements = switch (value) {
            case Collection<?> c -> c;
            case Optional<?> o -> o.stream().toList();
            case Map<?, ?> m -> throw new IllegalArgumentException("expected a set, got a map " + m);
            default -> Set.of(value);
        };
        if (elements.isEmpty()) {
            return Set.of();
        }
        if (elements instanceof FrozenValue && elements instanceof Set<?> set) {
            // plain atoms and immutable by contract (a decoded AtomSet, a translation's frozen set):
            // kept as it is, its own contains() serves the diff's look-ups; a zone's first write
            // inserts a million addresses without copying them
            return set;
        }
        if (elements instanceof Set<?> set && allPlainAtoms(set)) {
            return Set.copyOf(set); // no copy for an immutable set: large address sets pass as they are
        }
        Set<Object> out = HashSet.newHashSet(elements.size());
        for (Object e : elements) {
            out.add(atom(e, atom));
        }
        return Set.copyOf(out);
    }

    private static Object atom(Object a, Function<Object, Object> resolve) {
        Object r = resolve.apply(a);
        return r instanceof Integer i ? Long.valueOf(i) : r;
    }

    /** Whether a map holds canonical atoms only (no reference to resolve, no Integer to widen). */
    private static boolean allPlainAtoms(Map<?, ?> m) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!isPlainAtom(e.getKey()) || !isPlainAtom(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** Whether a set holds canonical atoms only (a loop: no stream pipeline per row). */
    private static boolean allPlainAtoms(Set<?> s) {
        for (Object e : s) {
            if (!isPlainAtom(e)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPlainAtom(Object a) {
        return a instanceof String
                || a instanceof Long
                || a instanceof Uuid
                || a instanceof Boolean
                || a instanceof Double;
    }

    /** Calls {@code sink} with every named uuid inside a canonical value. */
    static void namedUuids(Object value, Consumer<NamedUuid> sink) {
        switch (value) {
            case NamedUuid n -> sink.accept(n);
            case FrozenValue frozen -> {
                // plain atoms only, by contract: no named uuid among an address set's thousands of strings
            }
            case Collection<?> c ->
                c.forEach(e -> {
                    if (e instanceof NamedUuid n) {
                        sink.accept(n);
                    }
                });
            case Map<?, ?> m ->
                m.forEach((k, v) -> {
                    if (k instanceof NamedUuid n) {
                        sink.accept(n);
                    }
                    if (v instanceof NamedUuid n) {
                        sink.accept(n);
                    }
                });
            default -> {}
        }
    }

    /** The value a column has when a row does not carry it: empty for sets and maps, none for scalars. */
    static Object absent(ColumnType type) {
        return type.isMap() ? Map.of() : type.isScalar() ? null : Set.of();
    }

    /** Whether a value is a set column's or map column's default (empty). */
    static boolean isEmptyCollection(Object value) {
        return value instanceof Collection<?> c && c.isEmpty() || value instanceof Map<?, ?> m && m.isEmpty();
    }
}
