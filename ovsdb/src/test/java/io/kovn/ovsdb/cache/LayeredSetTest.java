package io.kovn.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.AtomSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * A layered set column value equals a plainly copied one after any sequence of update2 toggles, whether it started from
 * a small set or from a large set as the decoder makes it (an AtomSet, layered as it is).
 */
class LayeredSetTest {

    @Property(tries = 200)
    void toggledLikeAPlainSetAndEarlierValuesUnchanged(
            @ForAll @IntRange(min = 0, max = 400) int initial,
            @ForAll boolean decoded,
            @ForAll @Size(max = 60) List<@Size(max = 40) List<@IntRange(min = 0, max = 500) Integer>> toggles) {
        Set<Object> plain = new HashSet<>();
        for (int i = 0; i < initial; i++) {
            plain.add("10.0." + i / 250 + "." + i % 250);
        }
        Set<Object> layered = decoded && plain.size() >= AtomSet.LARGE
                ? AtomSet.copyOf(plain)
                : LayeredSet.toggle(Set.of(), Set.copyOf(plain));
        Set<Object> start = layered;
        List<Set<Object>> values = new ArrayList<>();
        List<Set<Object>> expected = new ArrayList<>();
        for (List<Integer> step : toggles) {
            Set<Object> d = new HashSet<>();
            step.forEach(i -> d.add("10.0." + i / 250 + "." + i % 250));
            for (Object o : d) {
                if (!plain.remove(o)) {
                    plain.add(o);
                }
            }
            layered = LayeredSet.toggle(layered, d);
            values.add(layered);
            expected.add(Set.copyOf(plain));
            assertThat(layered).isEqualTo(plain).hasSize(plain.size());
            assertThat(new HashSet<>(layered)).isEqualTo(plain); // iteration yields each element once
            assertThat(layered.hashCode()).isEqualTo(plain.hashCode());
            for (int i = 0; i <= 500; i += 37) {
                Object probe = "10.0." + i / 250 + "." + i % 250;
                assertThat(layered.contains(probe)).isEqualTo(plain.contains(probe));
            }
        }
        assertThat(start).hasSize(initial);
        for (int i = 0; i < values.size(); i++) {
            assertThat(values.get(i)).as("value %d is immutable", i).isEqualTo(expected.get(i));
        }
    }

    /**
     * Changes of one or two elements at a time (as a pod relabel makes them), each applied to any earlier value, not
     * only the latest: every value equals its plain copy, and no value changes when a later one, or a sibling made from
     * the same value, is made.
     */
    @Property(tries = 300)
    void smallTogglesOfAnyEarlierValueLikeAPlainSet(
            @ForAll @IntRange(min = 0, max = 200) int initial,
            @ForAll @Size(max = 120) List<@IntRange(min = 0, max = 260) Integer> elements,
            @ForAll @Size(max = 120) List<@IntRange(min = 0, max = 1000) Integer> from,
            @ForAll @Size(max = 120) List<Boolean> pairs) {
        Set<Object> plain = new HashSet<>();
        for (int i = 0; i < initial; i++) {
            plain.add(address(i));
        }
        List<Set<Object>> values =
                new ArrayList<>(List.of(plain.size() >= AtomSet.LARGE ? AtomSet.copyOf(plain) : Set.copyOf(plain)));
        List<Set<Object>> expected = new ArrayList<>(List.of(Set.copyOf(plain)));
        for (int step = 0; step < elements.size(); step++) {
            int at = from.isEmpty() ? values.size() - 1 : from.get(step % from.size()) % values.size();
            Set<Object> d = new HashSet<>(Set.of(address(elements.get(step))));
            if (!pairs.isEmpty() && pairs.get(step % pairs.size())) {
                d.add(address(elements.get(step) + 1));
            }
            Set<Object> model = new HashSet<>(expected.get(at));
            for (Object o : d) {
                if (!model.remove(o)) {
                    model.add(o);
                }
            }
            Set<Object> next = LayeredSet.toggle(values.get(at), Set.copyOf(d));
            assertThat(next).isEqualTo(model).hasSize(model.size());
            assertThat(new HashSet<>(next)).isEqualTo(model); // iteration yields each element once
            assertThat(next.hashCode()).isEqualTo(model.hashCode());
            for (Object o : d) {
                assertThat(next.contains(o)).isEqualTo(model.contains(o));
            }
            values.add(next);
            expected.add(Set.copyOf(model));
        }
        for (int i = 0; i < values.size(); i++) {
            assertThat(values.get(i)).as("value %d is immutable", i).isEqualTo(expected.get(i));
            assertThat(values.get(i)).hasSize(expected.get(i).size());
        }
    }

    @Test
    void oneElementChangesShareTheLayersUntilTheyAreFolded() {
        Set<Object> plain = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            plain.add(address(i));
        }
        Set<Object> v = AtomSet.copyOf(plain);
        for (int i = 0; i < 3 * LayeredSet.RECENT + 1; i++) {
            Object o = address(i % 2 == 0 ? 2000 + i : i); // join, leave, join, ...
            v = LayeredSet.toggle(v, Set.of(o));
            if (!plain.remove(o)) {
                plain.add(o);
            }
            assertThat(v).isInstanceOf(LayeredSet.class).isEqualTo(plain).hasSize(plain.size());
        }
    }

    private static String address(int i) {
        return "10.0." + i / 250 + "." + i % 250;
    }
}
