package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.AtomSet;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable set column value that a monitor update changes in O(change): a shared base plus the elements added and
 * removed since, compacted into a new base once the changes grow past a fraction of it. An address set of 10,000
 * addresses that gains one address costs a copy of the small layers, not of 10,000 elements; earlier row values keep
 * their own (unchanged) layers, so listeners still see the old and the new value.
 *
 * <p>The last few toggled elements are kept apart, in a small array ({@code recent}): a change of one element (a pod's
 * address joining or leaving the address sets that select it) then copies that array, and the
 * {@code added}/{@code removed} layers are copied only once per {@link #RECENT} such changes.
 */
final class LayeredSet extends AbstractSet<Object> {
    /** Below this size a set is simply copied. */
    static final int LAYER_FROM = AtomSet.LARGE;
    /** At most this many elements are toggled by {@code recent} before they are folded into the layers. */
    static final int RECENT = 8;

    private static final Object[] NONE = {};

    // invariants: added and base are disjoint, removed is within base; recent holds distinct
    // elements, each toggled relative to base + added - removed
    private final Set<Object> base;
    private final Set<Object> added;
    private final Set<Object> removed;
    private final Object[] recent;
    private final int size;
    /** A {@link Set}'s hash code (the sum of the elements'), kept as elements toggle: the diff's look-up is O(1). */
    private final int hash;

    private LayeredSet(Set<Object> base, Set<Object> added, Set<Object> removed, Object[] recent, int size, int hash) {
        this.base = base;
        this.added = added;
        this.removed = removed;
        this.recent = recent;
        this.size = size;
        this.hash = hash;
    }

    private static LayeredSet of(Set<Object> base) {
        return new LayeredSet(base, Set.of(), Set.of(), NONE, base.size(), base.hashCode());
    }

    /**
     * {@code current} with every element of {@code toggled} flipped (an OVSDB update2 set diff: present elements leave,
     * absent ones join).
     */
    static Set<Object> toggle(Set<?> current, Set<?> toggled) {
        // a large set as decoded is immutable: it becomes the base as it is, not a copy
        LayeredSet l = current instanceof LayeredSet ls ? ls : current instanceof AtomSet a ? of(a) : null;
        if (l != null) {
            return l.recent.length + toggled.size() <= RECENT ? l.withRecent(toggled) : l.folded(toggled);
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
        return of(AtomSet.copyOf(s));
    }

    /** This set with {@code toggled} flipped in a copy of {@code recent}; the layers are shared. */
    private LayeredSet withRecent(Set<?> toggled) {
        Object[] r = Arrays.copyOf(recent, recent.length + toggled.size());
        int n = recent.length;
        int newSize = size;
        int newHash = hash;
        for (Object o : toggled) {
            boolean present = contains(o);
            newSize += present ? -1 : 1; // toggled elements are distinct: each counts once
            newHash += present ? -o.hashCode() : o.hashCode();
            int at = indexOf(r, n, o);
            if (at >= 0) {
                r[at] = r[--n]; // toggled back
                r[n] = null;
            } else {
                r[n++] = o;
            }
        }
        return new LayeredSet(base, added, removed, n == r.length ? r : Arrays.copyOf(r, n), newSize, newHash);
    }

    /** This set with {@code recent} and {@code toggled} folded into new layers, compacted if they grew large. */
    private Set<Object> folded(Set<?> toggled) {
        int newHash = hash;
        for (Object o : toggled) {
            newHash += contains(o) ? -o.hashCode() : o.hashCode();
        }
        Set<Object> add = new HashSet<>(added);
        Set<Object> remove = new HashSet<>(removed);
        // flipped relative to the layers: the elements in exactly one of recent and toggled
        for (Object o : toggled) {
            if (indexOf(recent, recent.length, o) < 0) {
                flip(o, add, remove);
            }
        }
        for (Object o : recent) {
            if (!toggled.contains(o)) {
                flip(o, add, remove);
            }
        }
        int newSize = base.size() - remove.size() + add.size();
        if ((add.size() + remove.size()) * 8 > base.size()) {
            return compact(new LayeredSet(base, add, remove, NONE, newSize, newHash));
        }
        return new LayeredSet(
                base, Collections.unmodifiableSet(add), Collections.unmodifiableSet(remove), NONE, newSize, newHash);
    }

    /** Flips {@code o} relative to this set's layers (not its recent elements) into {@code add}/{@code remove}. */
    private void flip(Object o, Set<Object> add, Set<Object> remove) {
        if (inLayers(o)) {
            if (!add.remove(o)) {
                remove.add(o);
            }
        } else if (!remove.remove(o)) {
            add.add(o);
        }
    }

    private static Set<Object> compact(LayeredSet l) {
        if (l.size < LAYER_FROM) {
            Set<Object> s = HashSet.newHashSet(l.size);
            s.addAll(l);
            return Collections.unmodifiableSet(s);
        }
        return of(AtomSet.of(l.toArray(), l.size));
    }

    private static int indexOf(Object[] a, int n, Object o) {
        int h = o.hashCode(); // an int compare first: a string's hash code is kept, its equals compares bytes
        for (int i = 0; i < n; i++) {
            if (a[i].hashCode() == h && a[i].equals(o)) {
                return i;
            }
        }
        return -1;
    }

    private boolean inLayers(Object o) {
        return added.contains(o) || (base.contains(o) && !removed.contains(o));
    }

    private boolean inRecent(Object o) {
        return indexOf(recent, recent.length, o) >= 0;
    }

    @Override
    public boolean contains(Object o) {
        return inLayers(o) != inRecent(o);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** The base's elements still present, then the added ones, then the recent elements that joined. */
    @Override
    public Iterator<Object> iterator() {
        return new Iterator<>() {
            private final Iterator<Object> fromBase = base.iterator();
            private final Iterator<Object> fromAdded = added.iterator();
            private int fromRecent;
            private Object next = advance();

            private Object advance() {
                while (fromBase.hasNext()) {
                    Object o = fromBase.next();
                    if (!removed.contains(o) && !inRecent(o)) {
                        return o;
                    }
                }
                while (fromAdded.hasNext()) {
                    Object o = fromAdded.next();
                    if (!inRecent(o)) {
                        return o;
                    }
                }
                while (fromRecent < recent.length) {
                    Object o = recent[fromRecent++];
                    if (!inLayers(o)) {
                        return o;
                    }
                }
                return null;
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
