package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.AtomSet;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable set column value that a monitor update changes in O(change): a shared base plus
 * the elements added and removed since, compacted into a new base once the changes grow past a
 * fraction of it. An address set of 10,000 addresses that gains one address costs a copy of the
 * small layers, not of 10,000 elements; earlier row values keep their own (unchanged) layers, so
 * listeners still see the old and the new value.
 */
final class LayeredSet extends AbstractSet<Object> {
    /** Below this size a set is simply copied. */
    static final int LAYER_FROM = AtomSet.LARGE;

    private final Set<Object> base;
    private final Set<Object> added;
    private final Set<Object> removed;
    private final int size;

    private LayeredSet(Set<Object> base, Set<Object> added, Set<Object> removed) {
        this.base = base;
        this.added = added;
        this.removed = removed;
        this.size = base.size() - removed.size() + added.size();
    }

    /**
     * {@code current} with every element of {@code toggled} flipped (an OVSDB update2 set diff:
     * present elements leave, absent ones join).
     */
    static Set<Object> toggle(Set<?> current, Set<?> toggled) {
        // a large set as decoded is immutable: it becomes the base as it is, not a copy
        LayeredSet l = current instanceof LayeredSet ls ? ls
                : current instanceof AtomSet a ? new LayeredSet(a, Set.of(), Set.of()) : null;
        if (l != null) {
            Set<Object> added = new HashSet<>(l.added);
            Set<Object> removed = new HashSet<>(l.removed);
            for (Object o : toggled) {
                if (l.contains(o)) {
                    if (!added.remove(o)) {
                        removed.add(o);
                    }
                } else if (!removed.remove(o)) {
                    added.add(o);
                }
            }
            if ((added.size() + removed.size()) * 8 > l.base.size()) {
                return compact(new LayeredSet(l.base, added, removed));
            }
            return new LayeredSet(l.base, Collections.unmodifiableSet(added), Collections.unmodifiableSet(removed));
        }
        Set<Object> s = HashSet.newHashSet(current.size() + toggled.size());
        s.addAll(current);
        for (Object o : toggled) {
            if (!s.remove(o)) {
                s.add(o);
            }
        }
        if (s.size() < LAYER_FROM) {
            return Collections.unmodifiableSet(s);
        }
        return new LayeredSet(AtomSet.copyOf(s), Set.of(), Set.of());
    }

    private static Set<Object> compact(LayeredSet l) {
        if (l.size < LAYER_FROM) {
            Set<Object> s = HashSet.newHashSet(l.size);
            s.addAll(l);
            return Collections.unmodifiableSet(s);
        }
        return new LayeredSet(AtomSet.of(l.toArray(), l.size), Set.of(), Set.of());
    }

    @Override
    public boolean contains(Object o) {
        return added.contains(o) || (base.contains(o) && !removed.contains(o));
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Iterator<Object> iterator() {
        return new Iterator<>() {
            private final Iterator<Object> fromBase = base.iterator();
            private final Iterator<Object> fromAdded = added.iterator();
            private Object next = advance();

            private Object advance() {
                while (fromBase.hasNext()) {
                    Object o = fromBase.next();
                    if (!removed.contains(o)) {
                        return o;
                    }
                }
                return fromAdded.hasNext() ? fromAdded.next() : null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Object next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Object o = next;
                next = advance();
                return o;
            }
        };
    }
}
