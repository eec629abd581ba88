package io.kovn.policy.model;

import io.kovn.ovn.annotations.IpFamily;
import java.lang.ref.WeakReference;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An immutable sorted set of strings, held as a sorted array. Freezing copies once; rows built from a frozen set share
 * it instead of copying again (address sets of rules with the same peers hold the same content).
 *
 * <p>A set made from another by {@link #patched} remembers that set and the elements added and removed
 * ({@link #delta}): whoever holds both (the last written address set and the new one) gets the change without comparing
 * thousands of addresses. The link is weak, so versions never chain in memory.
 *
 * <p>It knows nothing of OVSDB: where rows are built (the controller's {@code NorthboundRows}) a view marks it as a
 * frozen OVSDB value, so rows share it without a copy.
 */
public final class FrozenSortedSet extends AbstractSet<String> implements SortedSet<String> {
    private static final String[] NONE = new String[0];
    private static final FrozenSortedSet EMPTY = new FrozenSortedSet(NONE);

    private final String[] elements;
    private int hash;
    /**
     * Its addresses of each IP family, made on first ask (shared selections are asked many times) or handed on by
     * {@link #patched}, which patches a dual-stack set's two parts along with it so that each part, too, knows what
     * changed.
     */
    private volatile Map<IpFamily, FrozenSortedSet> byFamily;
    /** The set this one was patched from, and how. */
    private final WeakReference<FrozenSortedSet> origin;

    private final Delta delta;

    /** What a patch added and removed, each sorted. */
    public record Delta(List<String> added, List<String> removed) {}

    private FrozenSortedSet(String[] sortedDistinct) {
        this(sortedDistinct, null, null);
    }

    private FrozenSortedSet(String[] sortedDistinct, FrozenSortedSet origin, Delta delta) {
        this.elements = sortedDistinct;
        this.origin = origin == null ? null : new WeakReference<>(origin);
        this.delta = delta;
    }

    /** {@code values} as a frozen set (itself if already frozen). */
    public static FrozenSortedSet of(Collection<String> values) {
        if (values instanceof FrozenSortedSet frozen) {
            return frozen;
        }
        if (values.isEmpty()) {
            return EMPTY;
        }
        if (values instanceof SortedSet<String> sorted && sorted.comparator() == null) {
            return new FrozenSortedSet(sorted.toArray(NONE));
        }
        // one sort of an array, then duplicates dropped: no tree node per element
        String[] all = values.toArray(NONE);
        Arrays.sort(all);
        int o = 0;
        for (String e : all) {
            if (o == 0 || !all[o - 1].equals(e)) {
                all[o++] = e;
            }
        }
        return new FrozenSortedSet(o == all.length ? all : Arrays.copyOf(all, o));
    }

    /**
     * The union of sets: one merge walk over their sorted elements instead of an insert per element; a frozen set
     * itself when it is the only non-empty one (so a rule with one selector peer shares the index's patched selection).
     */
    public static FrozenSortedSet union(List<? extends SortedSet<String>> parts) {
        List<String[]> sorted = new ArrayList<>(parts.size());
        FrozenSortedSet only = EMPTY;
        for (SortedSet<String> part : parts) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.comparator() != null) { // another order: no merge walk
                TreeSet<String> all = new TreeSet<>();
                parts.forEach(all::addAll);
                return of(all);
            }
            only = of(part);
            sorted.add(only.elements);
        }
        if (sorted.size() <= 1) {
            return only;
        }
        String[] merged = sorted.getFirst();
        for (int i = 1; i < sorted.size(); i++) {
            merged = merge(merged, sorted.get(i));
        }
        return new FrozenSortedSet(merged);
    }

    /** Two sorted arrays of distinct elements as one, without duplicates. */
    private static String[] merge(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        int i = 0;
        int j = 0;
        int o = 0;
        while (i < a.length && j < b.length) {
            int order = a[i].compareTo(b[j]);
            if (order < 0) {
                out[o++] = a[i++];
            } else if (order > 0) {
                out[o++] = b[j++];
            } else {
                out[o++] = a[i++];
                j++;
            }
        }
        while (i < a.length) {
            out[o++] = a[i++];
        }
        while (j < b.length) {
            out[o++] = b[j++];
        }
        return o == out.length ? out : Arrays.copyOf(out, o);
    }

    /**
     * This set with {@code add} added and {@code remove} removed (either may overlap the set or each other: an element
     * in both stays, as if removed then added), remembering the change when there is one.
     */
    public FrozenSortedSet patched(Collection<String> add, Collection<String> remove) {
        TreeSet<String> gone = new TreeSet<>();
        for (String r : remove) {
            if (contains(r) && !add.contains(r)) {
                gone.add(r);
            }
        }
        TreeSet<String> come = new TreeSet<>();
        for (String a : add) {
            if (!contains(a)) {
                come.add(a);
            }
        }
        if (gone.isEmpty() && come.isEmpty()) {
            return this;
        }
        String[] out = new String[elements.length - gone.size() + come.size()];
        int i = 0;
        int o = 0;
        Iterator<String> c = come.iterator();
        String next = c.hasNext() ? c.next() : null;
        // both sorted: the removed elements are met in step, not looked up per element
        Iterator<String> g = gone.iterator();
        String drop = g.hasNext() ? g.next() : null;
        while (i < elements.length || next != null) {
            if (next != null && (i == elements.length || next.compareTo(elements[i]) < 0)) {
                out[o++] = next;
                next = c.hasNext() ? c.next() : null;
            } else {
                if (drop != null && drop.equals(elements[i])) {
                    drop = g.hasNext() ? g.next() : null;
                } else {
                    out[o++] = elements[i];
                }
                i++;
            }
        }
        FrozenSortedSet patched = new FrozenSortedSet(out, this, new Delta(List.copyOf(come), List.copyOf(gone)));
        patched.byFamily = splitAfter(patched, come, gone);
        return patched;
    }

    /**
     * The family split of {@code patched}, made from this set's own split and the patch instead of a scan of every
     * element (a relabel patches 1,000-address selections one address at a time); null (made on first ask) when this
     * set was never split.
     */
    private Map<IpFamily, FrozenSortedSet> splitAfter(
            FrozenSortedSet patched, Collection<String> come, Collection<String> gone) {
        Map<IpFamily, FrozenSortedSet> split = byFamily;
        if (split == null) {
            return null;
        }
        IpFamily only = singleFamily(split);
        if (only != null || elements.length == 0) {
            // an empty set only changes by gaining elements: they say the family
            IpFamily family = only != null ? only : IpFamily.of(come.iterator().next());
            for (String c : come) {
                if (IpFamily.of(c) != family) {
                    return null; // the patch mixes families in: scanned on first ask
                }
            }
            return singleFamilySplit(patched, family);
        }
        Map<IpFamily, FrozenSortedSet> next = new EnumMap<>(IpFamily.class);
        for (IpFamily family : IpFamily.values()) {
            List<String> add =
                    come.stream().filter(c -> IpFamily.of(c) == family).toList();
            List<String> remove =
                    gone.stream().filter(g -> IpFamily.of(g) == family).toList();
            FrozenSortedSet part = split.get(family).patched(add, remove);
            if (part.elements.length == patched.elements.length) {
                return singleFamilySplit(patched, family); // the other family is gone: the set is its own part
            }
            next.put(family, part);
        }
        return next;
    }

    /** The family of every element, by a split: null when the set holds both (or none). */
    private static IpFamily singleFamily(Map<IpFamily, FrozenSortedSet> split) {
        boolean four = !split.get(IpFamily.IPV4).isEmpty();
        boolean six = !split.get(IpFamily.IPV6).isEmpty();
        return four == six ? null : four ? IpFamily.IPV4 : IpFamily.IPV6;
    }

    private static Map<IpFamily, FrozenSortedSet> singleFamilySplit(FrozenSortedSet set, IpFamily family) {
        Map<IpFamily, FrozenSortedSet> split = new EnumMap<>(IpFamily.class);
        for (IpFamily f : IpFamily.values()) {
            split.put(f, f == family ? set : EMPTY);
        }
        return split;
    }

    /** How this set differs from {@code earlier}, if it was patched from exactly that set. */
    public Optional<Delta> deltaFrom(SortedSet<String> earlier) {
        if (earlier == this) {
            return Optional.of(new Delta(List.of(), List.of()));
        }
        if (origin != null && origin.get() == earlier) {
            return Optional.of(delta);
        }
        return Optional.empty();
    }

    @Override
    public Iterator<String> iterator() {
        return Arrays.asList(elements).iterator(); // a view: no copy, and remove() is refused
    }

    /** The elements of one IP family (addresses or CIDRs): itself when all are of that family. */
    public FrozenSortedSet ofFamily(IpFamily family) {
        Map<IpFamily, FrozenSortedSet> split = byFamily;
        if (split == null) {
            int v4 = 0;
            for (String a : elements) {
                if (IpFamily.of(a) == IpFamily.IPV4) {
                    v4++;
                }
            }
            split = new EnumMap<>(IpFamily.class);
            if (v4 > 0 && v4 < elements.length) { // mixed: the two subsets are made once
                String[] four = new String[v4];
                String[] six = new String[elements.length - v4];
                int f = 0;
                int s = 0;
                for (String a : elements) {
                    if (IpFamily.of(a) == IpFamily.IPV4) {
                        four[f++] = a;
                    } else {
                        six[s++] = a;
                    }
                }
                split.put(IpFamily.IPV4, new FrozenSortedSet(four));
                split.put(IpFamily.IPV6, new FrozenSortedSet(six));
            } else {
                boolean allV4 = v4 == elements.length;
                split.put(IpFamily.IPV4, allV4 ? this : EMPTY);
                split.put(IpFamily.IPV6, allV4 && elements.length > 0 ? EMPTY : this);
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
            if (f.deltaFrom(this).isPresent() || deltaFrom(f).isPresent()) {
                return false; // one was patched from the other, and a patch always changes something
            }
            return Arrays.equals(elements, f.elements);
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            for (String e : elements) {
                h += e.hashCode();
            }
            hash = h;
        }
        return h;
    }

    @Override
    public int size() {
        return elements.length;
    }

    @Override
    public boolean contains(Object o) {
        return o instanceof String s && Arrays.binarySearch(elements, s) >= 0;
    }

    @Override
    public Object[] toArray() {
        return elements.clone();
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public SortedSet<String> subSet(String fromElement, String toElement) {
        return range(from(fromElement), from(toElement));
    }

    @Override
    public SortedSet<String> headSet(String toElement) {
        return range(0, from(toElement));
    }

    @Override
    public SortedSet<String> tailSet(String fromElement) {
        return range(from(fromElement), elements.length);
    }

    /** The index of the first element not less than {@code e}. */
    private int from(String e) {
        int i = Arrays.binarySearch(elements, e);
        return i >= 0 ? i : -i - 1;
    }

    private FrozenSortedSet range(int from, int to) {
        return from >= to ? EMPTY : new FrozenSortedSet(Arrays.copyOfRange(elements, from, to));
    }

    @Override
    public String first() {
        if (elements.length == 0) {
            throw new NoSuchElementException();
        }
        return elements[0];
    }

    @Override
    public String last() {
        if (elements.length == 0) {
            throw new NoSuchElementException();
        }
        return elements[elements.length - 1];
    }
}
