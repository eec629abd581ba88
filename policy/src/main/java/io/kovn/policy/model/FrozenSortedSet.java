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
public final class FrozenSortedSet extends AbstractSet<String> implements SortedSet<String> {
    private static final FrozenSortedSet EMPTY = new FrozenSortedSet(new TreeSet<>());

    private final SortedSet<String> delegate;

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
