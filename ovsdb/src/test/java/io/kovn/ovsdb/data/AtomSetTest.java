package io.kovn.ovsdb.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** An AtomSet is a Set like any other: same elements, equality, hash code and look-ups as a HashSet. */
class AtomSetTest {

    @Provide
    Arbitrary<List<Object>> atoms() {
        Arbitrary<Object> ip = Arbitraries.integers()
                .between(0, 3000)
                .map(i -> "10." + i / 65536 + "." + (i / 256) % 256 + "." + i % 256);
        Arbitrary<Object> number = Arbitraries.longs().between(-5, 5000).map(l -> (Object) l);
        Arbitrary<Object> uuid =
                Arbitraries.integers().between(0, 300).map(i -> (Object) Uuid.of(new UUID(7, i).toString()));
        return Arbitraries.oneOf(ip, number, uuid, Arbitraries.of(true, false))
                .list()
                .ofMaxSize(700);
    }

    @Property(tries = 300)
    void holdsTheDistinctElementsLikeAHashSet(
            @ForAll("atoms") List<Object> elements, @ForAll("atoms") List<Object> probes) {
        Set<Object> expected = new HashSet<>(elements);
        AtomSet set = AtomSet.of(elements.toArray(), elements.size());
        assertThat(set).hasSize(expected.size()).isEqualTo(expected);
        assertThat(expected).isEqualTo(set);
        assertThat(set.hashCode()).isEqualTo(expected.hashCode());
        List<Object> iterated = new ArrayList<>(set);
        assertThat(iterated).hasSize(expected.size()).containsExactlyInAnyOrderElementsOf(expected);
        for (Object p : probes) {
            assertThat(set.contains(p)).isEqualTo(expected.contains(p));
        }
        assertThat(set.contains(null)).isFalse();
        assertThat(AtomSet.copyOf(set)).isSameAs(set);
        assertThat(Set.copyOf(set)).isEqualTo(expected);
    }

    @Test
    void usesOnlyThePrefixOfTheArrayAndRefusesChanges() {
        AtomSet set = AtomSet.of(new Object[] {"a", "b", "a", "c", null}, 4);
        assertThat(set).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(AtomSet.of(new Object[0], 0)).isEmpty();
        assertThatThrownBy(() -> set.add("d")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> set.iterator().remove()).isInstanceOf(UnsupportedOperationException.class);
    }
}
