package io.kovn.ovsdb.data;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable set of OVSDB atoms in one open-addressing table: how the library holds a large set column value it
 * decoded (an address set of thousands of addresses).
 *
 * <p>Why not {@code Set.of}: the JDK's immutable set places an element at its hash code modulo the table size, and the
 * {@code String} hash codes of IP addresses are nearly consecutive, so its linear probing walks ~6 slots per element of
 * such a set (measured on 1 M addresses), on every insert and look-up. Here the hash code is spread (Fibonacci hashing)
 * first: ~0.15 extra slots. Equality and hash code are those of any {@link Set}.
 */
public final class AtomSet extends AbstractSet<Object> implements FrozenValue {
    /** Set values of this many atoms or more are decoded into an {@code AtomSet} (smaller ones into {@code Set.of}). */
    public static final int LARGE = 64;

    private static final int SPREAD = 0x9E3779B9; // 2^32 / golden ratio

    private final Object[] table; // a power of two, at most two thirds full
    private final int shift;
    private final int size;
    private final int hash;

    private AtomSet(Object[] table, int shift, int size, int hash) {
        this.table = table;
        this.shift = shift;
        this.size = size;
        this.hash = hash;
    }

    /** A set of the first {@code n} elements of {@code elements} (repeated ones count once); the array is not kept. */
    public static AtomSet of(Object[] elements, int n) {
        int need = n + (n + 1) / 2; // at most two thirds full: always a free slot to end a probe
        int capacity = Math.max(4, Integer.highestOneBit(need - 1) << 1);
        Object[] table = new Object[capacity];
        int shift = Integer.numberOfLeadingZeros(capacity) + 1;
        int size = 0;
        int hash = 0;
        for (int k = 0; k < n; k++) {
            Object e = Objects.requireNonNull(elements[k]);
            int h = e.hashCode();
            int i = slot(h, shift);
            while (table[i] != null && !table[i].equals(e)) {
                i = (i + 1) & (capacity - 1);
            }
            if (table[i] == null) {
                table[i] = e;
                size++;
                hash += h;
            }
        }
        return new AtomSet(table, shift, size, hash);
    }

    /** A set of the elements of {@code c}. */
    public static AtomSet copyOf(Set<?> c) {
        return c instanceof AtomSet a ? a : of(c.toArray(), c.size());
    }

    private static int slot(int hashCode, int shift) {
        return (hashCode * SPREAD) >>> shift;
    }

    @Override
    public boolean contains(Object o) {
        if (o == null) {
            return false;
        }
        int i = slot(o.hashCode(), shift);
        for (Object e; (e = table[i]) != null; i = (i + 1) & (table.length - 1)) {
            if (e.equals(o)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public Iterator<Object> iterator() {
        return new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                while (from < table.length && table[from] == null) {
                    from++;
                }
                return from;
            }

            @Override
            public boolean hasNext() {
                return next < table.length;
            }

            @Override
            public Object next() {
                if (next >= table.length) {
                    throw new NoSuchElementException();
                }
                Object e = table[next];
                next = advance(next + 1);
                return e;
            }
        };
    }
}
