package io.kovn.ovsdb.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Mutator;
import io.kovn.ovsdb.schema.AtomicType;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnType;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** Whatever the diff chooses, applying it the way ovsdb-server does yields the desired value. */
class ColumnDiffPropertyTest {
    static final ColumnType SET = new ColumnType(BaseType.of(AtomicType.STRING), null, 0, ColumnType.UNLIMITED);
    static final ColumnType MAP =
            new ColumnType(BaseType.of(AtomicType.STRING), BaseType.of(AtomicType.STRING), 0, ColumnType.UNLIMITED);

    @Property(tries = 300)
    void setsReachTheDesiredValueAndMutateOnlyWhenSmaller(
            @ForAll @Size(max = 30) Set<@StringLength(max = 2) String> current,
            @ForAll @Size(max = 30) Set<@StringLength(max = 2) String> desired) {
        ColumnDiff d = ColumnDiff.of("c", SET, Set.copyOf(current), Set.copyOf(desired));
        assertThat(apply(d, Set.copyOf(current))).isEqualTo(desired);
        if (d instanceof ColumnDiff.Mutate m) {
            assertThat(elements(m)).isLessThan(desired.size());
        }
        if (current.equals(desired)) {
            assertThat(d).isInstanceOf(ColumnDiff.Same.class);
        }
    }

    @Property(tries = 300)
    void oneElementLeavingALargeSetIsFoundWhateverTheOthers(
            @ForAll @Size(min = 1, max = 200) Set<@StringLength(max = 2) String> current,
            @ForAll @IntRange(max = 199) int leaving,
            @ForAll @Size(max = 2) Set<@StringLength(max = 3) String> joining) {
        List<String> elements = List.copyOf(current);
        Set<String> desired = new HashSet<>(current);
        desired.remove(elements.get(leaving % elements.size()));
        desired.addAll(joining);
        ColumnDiff d = ColumnDiff.of("c", SET, AtomSet.copyOf(current), Set.copyOf(desired));
        assertThat(apply(d, Set.copyOf(current))).isEqualTo(desired);
    }

    @Property(tries = 300)
    void aCurrentValueKnownEqualToASortedSetIsComparedByWalkingBoth(
            @ForAll @Size(max = 80) Set<@StringLength(max = 2) String> current,
            @ForAll @Size(max = 80) Set<@StringLength(max = 2) String> desired) {
        ColumnDiff d = ColumnDiff.of(
                "c",
                SET,
                AtomSet.copyOf(current),
                new java.util.TreeSet<>(desired),
                new SameValues.Known(new java.util.TreeSet<>(current), Set.of()));
        assertThat(apply(d, Set.copyOf(current))).isEqualTo(desired);
        assertThat(d).isEqualTo(ColumnDiff.of("c", SET, Set.copyOf(current), Set.copyOf(desired)));
    }

    @Property(tries = 300)
    void aSetPatchedFromTheKnownValueIsDiffedByItsChangeToTheSameResult(
            @ForAll @Size(max = 80) Set<@StringLength(max = 2) String> current,
            @ForAll @Size(max = 5) Set<@StringLength(max = 2) String> add,
            @ForAll @Size(max = 5) Set<@StringLength(max = 2) String> remove) {
        java.util.TreeSet<String> known = new java.util.TreeSet<>(current);
        Patched desired = Patched.from(known, add, remove);
        ColumnDiff d = ColumnDiff.of("c", SET, AtomSet.copyOf(current), desired, new SameValues.Known(known, Set.of()));
        assertThat(apply(d, Set.copyOf(current))).isEqualTo(desired);
        assertThat(d).isEqualTo(ColumnDiff.of("c", SET, Set.copyOf(current), Set.copyOf(desired)));
    }

    @Property(tries = 500)
    void aRowToggledSinceItsProofIsDiffedByBothChangesToTheSameResult(
            @ForAll @Size(max = 80) Set<@StringLength(max = 2) String> proven,
            @ForAll @Size(max = 6) Set<@StringLength(max = 2) String> toggled,
            @ForAll @Size(max = 5) Set<@StringLength(max = 2) String> add,
            @ForAll @Size(max = 5) Set<@StringLength(max = 2) String> remove) {
        java.util.TreeSet<String> base = new java.util.TreeSet<>(proven);
        Set<String> current = new HashSet<>(proven); // the row now: the proven set with some elements flipped
        for (String t : toggled) {
            if (!current.remove(t)) current.add(t);
        }
        Patched desired = Patched.from(base, add, remove);
        desired.walkable = false;
        ColumnDiff d = ColumnDiff.of(
                "c", SET, AtomSet.copyOf(current), desired, new SameValues.Known(base, Set.copyOf(toggled)));
        desired.walkable = true;
        assertThat(apply(d, Set.copyOf(current))).isEqualTo(desired);
        assertThat(d).isEqualTo(ColumnDiff.of("c", SET, Set.copyOf(current), Set.copyOf(desired)));
    }

    @Test
    void aPatchedSetIsNotWalked() {
        java.util.TreeSet<String> known = new java.util.TreeSet<>();
        for (int i = 0; i < 1_000; i++) known.add("10.0." + i / 250 + "." + i % 250);
        Patched desired = Patched.from(known, Set.of("10.9.9.9"), Set.of("10.0.0.7"));
        desired.walkable = false;

        ColumnDiff d = ColumnDiff.of("c", SET, AtomSet.copyOf(known), desired, new SameValues.Known(known, Set.of()));

        assertThat(d)
                .isEqualTo(new ColumnDiff.Mutate(
                        List.of(Mutation.delete("c", Set.of("10.0.0.7")), Mutation.insert("c", Set.of("10.9.9.9")))));
    }

    /** A sorted set made from another, remembering the change; its walk can be forbidden. */
    static final class Patched extends java.util.TreeSet<String> implements io.kovn.ovsdb.data.PatchedValue {
        private Object origin;
        private Change change;
        boolean walkable = true;

        static Patched from(java.util.SortedSet<String> origin, Set<String> add, Set<String> remove) {
            Patched p = new Patched();
            p.addAll(origin);
            Set<String> gone = new java.util.TreeSet<>(remove);
            gone.retainAll(origin);
            gone.removeAll(add);
            Set<String> come = new java.util.TreeSet<>(add);
            come.removeAll(origin);
            p.removeAll(gone);
            p.addAll(come);
            p.origin = origin;
            p.change = new Change(List.copyOf(come), List.copyOf(gone));
            return p;
        }

        @Override
        public java.util.Optional<Change> changeFrom(Object earlier) {
            return earlier == origin ? java.util.Optional.of(change) : java.util.Optional.empty();
        }

        @Override
        public java.util.Iterator<String> iterator() {
            if (!walkable) throw new AssertionError("walked");
            return super.iterator();
        }
    }

    @Test
    void anElementWhoseHashCodeCollidesWithTheOneLeavingStays() {
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
        for (List<String> order : List.of(List.of("BB", "Aa", "x"), List.of("Aa", "BB", "x"))) {
            Set<String> current = new java.util.LinkedHashSet<>(order); // the look-up meets both in either order
            ColumnDiff d = ColumnDiff.of("c", SET, current, Set.of("BB", "x"));
            assertThat(apply(d, Set.copyOf(current))).isEqualTo(Set.of("BB", "x"));
        }
    }

    @Property(tries = 300)
    void mapsReachTheDesiredValueAndMutateOnlyWhenSmaller(
            @ForAll @Size(max = 20) Map<@StringLength(max = 1) String, @IntRange(max = 3) Integer> current,
            @ForAll @Size(max = 20) Map<@StringLength(max = 1) String, @IntRange(max = 3) Integer> desired) {
        Map<Object, Object> cur = strings(current);
        Map<Object, Object> des = strings(desired);
        ColumnDiff d = ColumnDiff.of("c", MAP, cur, des);
        assertThat(apply(d, cur)).isEqualTo(des);
        if (d instanceof ColumnDiff.Mutate m) {
            assertThat(elements(m)).isLessThan(des.size());
        }
    }

    private static Map<Object, Object> strings(Map<String, Integer> m) {
        Map<Object, Object> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return Map.copyOf(out);
    }

    private static int elements(ColumnDiff.Mutate m) {
        return m.mutations().stream()
                .mapToInt(x -> x.value() instanceof Map<?, ?> mm ? mm.size() : ((Set<?>) x.value()).size())
                .sum();
    }

    /** RFC 7047 mutate semantics: set insert/delete; map delete by key set; map insert skips present keys. */
    private static Object apply(ColumnDiff d, Object current) {
        return switch (d) {
            case ColumnDiff.Same s -> current;
            case ColumnDiff.Rewrite r -> r.value();
            case ColumnDiff.Mutate m -> {
                Object v = current instanceof Map<?, ?> cm
                        ? new HashMap<Object, Object>(cm)
                        : new HashSet<Object>((Set<?>) current);
                for (Mutation x : m.mutations()) {
                    if (v instanceof Map<?, ?> raw) {
                        @SuppressWarnings("unchecked")
                        Map<Object, Object> map = (Map<Object, Object>) raw;
                        if (x.mutator() == Mutator.DELETE) {
                            map.keySet().removeAll((Set<?>) x.value());
                        } else {
                            ((Map<?, ?>) x.value()).forEach(map::putIfAbsent);
                        }
                    } else {
                        @SuppressWarnings("unchecked")
                        Set<Object> set = (Set<Object>) v;
                        if (x.mutator() == Mutator.DELETE) {
                            set.removeAll((Set<?>) x.value());
                        } else {
                            set.addAll((Set<?>) x.value());
                        }
                    }
                }
                yield v;
            }
        };
    }
}
