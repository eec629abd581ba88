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

/**
 * A layered set column value equals a plainly copied one after any sequence of update2 toggles,
 * whether it started from a small set or from a large set as the decoder makes it (an AtomSet,
 * layered as it is).
 */
class LayeredSetTest {

    @Property(tries = 200)
    void toggledLikeAPlainSetAndEarlierValuesUnchanged(@ForAll @IntRange(min = 0, max = 400) int initial,
            @ForAll boolean decoded,
            @ForAll @Size(max = 60) List<@Size(max = 40) List<@IntRange(min = 0, max = 500) Integer>> toggles) {
        Set<Object> plain = new HashSet<>();
        for (int i = 0; i < initial; i++) {
            plain.add("10.0." + i / 250 + "." + i % 250);
        }
        Set<Object> layered = decoded && plain.size() >= AtomSet.LARGE ? AtomSet.copyOf(plain)
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
}
