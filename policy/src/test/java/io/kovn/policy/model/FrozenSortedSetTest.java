package io.kovn.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpFamily;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class FrozenSortedSetTest {

    /** A patched set equals the same change made on a TreeSet, and its delta is exactly that change. */
    @Property(tries = 300)
    void aPatchIsTheSetDifferenceAndRemembersIt(
            @ForAll @Size(max = 30) Set<@StringLength(min = 1, max = 3) String> base,
            @ForAll @Size(max = 6) Set<@StringLength(min = 1, max = 3) String> add,
            @ForAll @Size(max = 6) Set<@StringLength(min = 1, max = 3) String> remove) {
        FrozenSortedSet before = FrozenSortedSet.of(base);
        TreeSet<String> expected = new TreeSet<>(base);
        expected.removeAll(remove);
        expected.addAll(add);
        FrozenSortedSet after = before.patched(add, remove);

        assertThat(after).containsExactlyElementsOf(expected);
        assertThat(after.equals(new TreeSet<>(expected))).isTrue();
        assertThat(after.equals(FrozenSortedSet.of(expected))).isTrue();
        assertThat(FrozenSortedSet.of(expected).equals(after)).isTrue();
        assertThat(after.hashCode()).isEqualTo(expected.hashCode());
        assertThat(before).containsExactlyElementsOf(new TreeSet<>(base)); // unchanged
        if (expected.equals(new TreeSet<>(base))) {
            assertThat(after).isSameAs(before);
        } else {
            FrozenSortedSet.Delta delta = after.deltaFrom(before).orElseThrow();
            TreeSet<String> added = new TreeSet<>(expected);
            added.removeAll(base);
            TreeSet<String> removed = new TreeSet<>(base);
            removed.removeAll(expected);
            assertThat(delta.added()).containsExactlyElementsOf(added);
            assertThat(delta.removed()).containsExactlyElementsOf(removed);
            assertThat(after.equals(before)).isFalse();
            if (!base.isEmpty()) { // (every empty set is the same one)
                assertThat(after.deltaFrom(FrozenSortedSet.of(base)))
                        .as("only from that very set")
                        .isEmpty();
            }
        }
    }

    /**
     * A set's addresses of each family are its elements of that family however it was made: patched from a set whose
     * split was asked (which hands the split on), merged from such sets, or never split before; a mixed set's parts are
     * patched along with it, so they know their change too.
     */
    @Property(tries = 500)
    void theFamilySplitFollowsPatchesAndUnions(
            @ForAll @Size(max = 12) Set<@StringLength(min = 1, max = 3) @Chars({'1', '2', ':'}) String> base,
            @ForAll @Size(max = 6)
                    List<@Size(max = 3) Set<@StringLength(min = 1, max = 3) @Chars({'1', '2', ':'}) String>> adds,
            @ForAll @Size(max = 6)
                    List<@Size(max = 3) Set<@StringLength(min = 1, max = 3) @Chars({'1', '2', ':'}) String>> removes,
            @ForAll @Size(max = 6) List<Boolean> ask) {
        FrozenSortedSet set = FrozenSortedSet.of(base);
        for (int i = 0; i < Math.min(adds.size(), removes.size()); i++) {
            boolean asked = i < ask.size() && ask.get(i);
            FrozenSortedSet four = asked ? set.ofFamily(IpFamily.IPV4) : null;
            FrozenSortedSet next = set.patched(adds.get(i), removes.get(i));
            assertFamilies(next);
            if (asked
                    && !four.isEmpty()
                    && !set.ofFamily(IpFamily.IPV6).isEmpty()
                    && next != set
                    && !next.ofFamily(IpFamily.IPV4).isEmpty()
                    && !next.ofFamily(IpFamily.IPV6).isEmpty()
                    && next.ofFamily(IpFamily.IPV4) != four) {
                assertThat(next.ofFamily(IpFamily.IPV4).deltaFrom(four))
                        .as("a mixed set's part is patched too")
                        .isPresent();
            }
            FrozenSortedSet other = FrozenSortedSet.of(adds.get(i));
            if (asked) {
                other.ofFamily(IpFamily.IPV4);
            }
            assertFamilies(FrozenSortedSet.union(List.of(next, other, FrozenSortedSet.of(removes.get(i)))));
            set = next;
        }
    }

    private static void assertFamilies(FrozenSortedSet set) {
        for (IpFamily family : IpFamily.values()) {
            assertThat(set.ofFamily(family))
                    .as(family + " of " + set)
                    .containsExactlyElementsOf(
                            set.stream().filter(a -> IpFamily.of(a) == family).toList());
        }
    }

    /** Any collection, duplicates and all, freezes to its distinct elements in order. */
    @Property(tries = 300)
    void freezingSortsAndDropsDuplicates(@ForAll @Size(max = 40) List<@StringLength(min = 1, max = 2) String> values) {
        assertThat(FrozenSortedSet.of(values)).containsExactlyElementsOf(new TreeSet<>(values));
    }

    /** A union equals the TreeSet of every element; it is the only non-empty frozen part itself. */
    @Property(tries = 300)
    void aUnionIsEveryElementOnceInOrder(
            @ForAll @Size(max = 4) List<@Size(max = 20) Set<@StringLength(min = 1, max = 3) String>> parts,
            @ForAll boolean frozen) {
        List<SortedSet<String>> sorted = parts.stream()
                .map(p -> frozen ? (SortedSet<String>) FrozenSortedSet.of(p) : new TreeSet<>(p))
                .toList();
        TreeSet<String> expected = new TreeSet<>();
        parts.forEach(expected::addAll);

        FrozenSortedSet union = FrozenSortedSet.union(sorted);

        assertThat(union).containsExactlyElementsOf(expected);
        assertThat(union.equals(new TreeSet<>(expected))).isTrue();
        List<SortedSet<String>> nonEmpty =
                sorted.stream().filter(p -> !p.isEmpty()).toList();
        if (frozen && nonEmpty.size() == 1) {
            assertThat(union).isSameAs(nonEmpty.getFirst());
        }
    }

    @Test
    void aUnionOfSetsInAnotherOrderIsStillInNaturalOrder() {
        TreeSet<String> reversed = new TreeSet<>(Comparator.reverseOrder());
        reversed.addAll(List.of("a", "c"));
        assertThat(FrozenSortedSet.union(List.of(reversed, new TreeSet<>(List.of("b", "c")))))
                .containsExactly("a", "b", "c");
    }

    @Test
    void rangesAndFamiliesOfASortedArray() {
        FrozenSortedSet s = FrozenSortedSet.of(List.of("10.0.0.2", "10.0.0.1", "fd00::1", "10.0.0.3"));
        assertThat(s.first()).isEqualTo("10.0.0.1");
        assertThat(s.last()).isEqualTo("fd00::1");
        assertThat(s.headSet("10.0.0.3")).containsExactly("10.0.0.1", "10.0.0.2");
        assertThat(s.tailSet("10.0.0.25")).containsExactly("10.0.0.3", "fd00::1");
        assertThat(s.subSet("10.0.0.2", "fd00::1")).containsExactly("10.0.0.2", "10.0.0.3");
        assertThat(s.ofFamily(IpFamily.IPV4)).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.3");
        assertThat(s.ofFamily(IpFamily.IPV6)).containsExactly("fd00::1");
        FrozenSortedSet v4 = FrozenSortedSet.of(List.of("10.0.0.1"));
        assertThat(v4.ofFamily(IpFamily.IPV4)).isSameAs(v4);
        assertThat(v4.ofFamily(IpFamily.IPV6)).isEmpty();
        assertThat(s.contains("10.0.0.2")).isTrue();
        assertThat(s.contains("10.0.0.9")).isFalse();
    }
}
