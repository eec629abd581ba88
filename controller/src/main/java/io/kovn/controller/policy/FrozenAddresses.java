package io.kovn.controller.policy;

import io.kovn.ovsdb.data.PatchedValue;
import io.kovn.policy.model.FrozenSortedSet;
import java.util.AbstractSet;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Optional;
import java.util.SortedSet;

/**
 * A translation's {@link FrozenSortedSet} as the OVSDB library's {@link io.kovn.ovsdb.data.FrozenValue}: a view, not a
 * copy, so a desired address set of 10,000 addresses reaches the generated row and the diff as it is. The pure model
 * does not know OVSDB value types (STYLE.md, layers); this is where its sets cross into rows. Sorted (natural order),
 * so a diff that knows the NB holds an earlier desired set compares the two in one walk; and when the translation
 * patched this set from that earlier one (a relabel), the diff takes the patch ({@link PatchedValue}) instead of
 * walking.
 */
final class FrozenAddresses extends AbstractSet<String> implements PatchedValue, SortedSet<String> {
    private final FrozenSortedSet set;

    private FrozenAddresses(FrozenSortedSet set) {
        this.set = set;
    }

    /** {@code set} viewed as a frozen OVSDB value (it holds only strings, and never changes). */
    static FrozenAddresses of(FrozenSortedSet set) {
        return new FrozenAddresses(set);
    }

    @Override
    public Optional<Change> changeFrom(Object earlier) {
        return earlier instanceof FrozenAddresses f
                ? set.deltaFrom(f.set).map(d -> new Change(d.added(), d.removed()))
                : Optional.empty();
    }

    @Override
    public Iterator<String> iterator() {
        return set.iterator();
    }

    @Override
    public int size() {
        return set.size();
    }

    @Override
    public boolean contains(Object o) {
        return set.contains(o); // a binary search, as the diff's look-ups expect
    }

    @Override
    public Object[] toArray() {
        return set.toArray();
    }

    /** Two views compare as their sets do: one ordered walk, not a look-up per element. */
    @Override
    public boolean equals(Object o) {
        return o == this || set.equals(o instanceof FrozenAddresses f ? f.set : o);
    }

    @Override
    public int hashCode() {
        return set.hashCode(); // computed once by the set
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public SortedSet<String> subSet(String fromElement, String toElement) {
        return set.subSet(fromElement, toElement);
    }

    @Override
    public SortedSet<String> headSet(String toElement) {
        return set.headSet(toElement);
    }

    @Override
    public SortedSet<String> tailSet(String fromElement) {
        return set.tailSet(fromElement);
    }

    @Override
    public String first() {
        return set.first();
    }

    @Override
    public String last() {
        return set.last();
    }
}
