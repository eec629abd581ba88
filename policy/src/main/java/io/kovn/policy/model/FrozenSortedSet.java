package io.kovn.policy.model;

import java.util.AbstractSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An immutable sorted set of strings. Freezing copies once; rows built from a frozen set share it
 * instead of copying again (address sets of rules with the same peers hold the same content).
 */
public final class FrozenSortedSet extends AbstractSet<String> implements SortedSet<String>, io.kovn.ovsdb.data.FrozenValue {
    private static final FrozenSortedSet EMPTY = new FrozenSortedSet(new TreeSet<>());

    private final SortedSet<String> delegate;
    /** Its addresses of each IP family, made on first ask (shared selections are asked many times). */
    private volatile java.util.Map<IpFamily, FrozenSortedSet> byFamily;

    private FrozenSortedSet(TreeSet<String> owned) {
        this.delegate = Collections.unmodifiableSortedSet(owned);
    }

    /** {@code values} as a frozen set (itself if already frozen). */
    public static FrozenSortedSet of(Collection<String> values) {
        if (values instanceof FrozenSortedSet frozen) {
            return frozen;
        }
        if (values.isEmpty()) {
            return EMPTY;
        }
        return new FrozenSortedSet(new TreeSet<>(values));
    }

    @Override
    public Iterator<String> iterator() {
        return delegate.iterator();
    }

    /** The elements of one IP family (addresses or CIDRs): itself when all are of that family. */
    public FrozenSortedSet ofFamily(IpFamily family) {
        java.util.Map<IpFamily, FrozenSortedSet> split = byFamily;
        if (split == null) {
            boolean v4 = false;
            boolean v6 = false;
            for (String a : delegate) {
                if (IpFamily.of(a) == IpFamily.V4) {
                    v4 = true;
                } else {
                    v6 = true;
                }
            }
            split = new java.util.EnumMap<>(IpFamily.class);
            if (v4 && v6) { // mixed: the two subsets are made once
                TreeSet<String> four = new TreeSet<>();
                TreeSet<String> six = new TreeSet<>();
                for (String a : delegate) {
                    (IpFamily.of(a) == IpFamily.V4 ? four : six).add(a);
                }
                split.put(IpFamily.V4, of(four));
                split.put(IpFamily.V6, of(six));
            } else {
                split.put(IpFamily.V4, v6 ? EMPTY : this);
                split.put(IpFamily.V6, v4 ? EMPTY : this);
            }
            byFamily = split;
        }
        return split.get(family);
    }

    /** Two frozen sets compare in one ordered walk instead of a lookup per element. */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof FrozenSortedSet f) {
            if (f.size() != size()) {
                return false;
            }
            Iterator<String> a = iterator();
            Iterator<String> b = f.iterator();
            while (a.hasNext()) {
                if (!a.next().equals(b.next())) {
                    return false;
                }
            }
            return true;
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public boolean contains(Object o) {
        return delegate.contains(o);
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public SortedSet<String> subSet(String fromElement, String toElement) {
        return delegate.subSet(fromElement, toElement);
    }

    @Override
    public SortedSet<String> headSet(String toElement) {
        return delegate.headSet(toElement);
    }

    @Override
    public SortedSet<String> tailSet(String fromElement) {
        return delegate.tailSet(fromElement);
    }

    @Override
    public String first() {
        return delegate.first();
    }

    @Override
    public String last() {
        return delegate.last();
    }
}
