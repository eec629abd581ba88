package io.kovn.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FrozenRowsTest {

    @Test
    void aCopyIsSortedUnmodifiableAndDetachedFromItsSource() {
        TreeMap<String, Integer> source = new TreeMap<>();
        source.put("b", 2);
        source.put("a", 1);
        FrozenRows<Integer> frozen = FrozenRows.of(source);
        source.put("c", 3);

        assertThat(frozen).containsExactly(Map.entry("a", 1), Map.entry("b", 2));
        assertThat(frozen.firstKey()).isEqualTo("a");
        assertThat(frozen).isEqualTo(new TreeMap<>(Map.of("a", 1, "b", 2)));
        assertThatThrownBy(() -> frozen.put("d", 4)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.values().remove(1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void frozenRowsAreTakenAsTheyAre() {
        FrozenRows<Integer> frozen = FrozenRows.of(new TreeMap<>(Map.of("a", 1)));
        assertThat(FrozenRows.of(frozen)).isSameAs(frozen);
        DesiredPolicyState state = new DesiredPolicyState(
                FrozenRows.of(new TreeMap<>()),
                FrozenRows.of(new TreeMap<>()),
                new TreeMap<>(),
                List.of(),
                PriorityAssignment.EMPTY,
                null);
        assertThat(FrozenRows.of(state.acls())).isSameAs(state.acls());
    }

    @Test
    void rowsWithAFewChangesEqualTheirSourceAndStayDetachedFromIt() {
        Random random = new Random(11);
        TreeMap<String, Integer> source = new TreeMap<>();
        for (int i = 0; i < 300; i++) {
            source.put("k" + i, i);
        }
        FrozenRows<Integer> frozen = FrozenRows.of(source);
        for (int round = 0; round < 200; round++) {
            TreeMap<String, Integer> before = new TreeMap<>(source);
            FrozenRows<Integer> previous = frozen;
            Set<String> keys = new HashSet<>();
            for (int c = random.nextInt(round % 50 == 0 ? 700 : 8); c > 0; c--) {
                String key = "k" + random.nextInt(400);
                keys.add(key);
                if (random.nextBoolean()) {
                    source.remove(key);
                } else {
                    source.put(key, random.nextInt());
                }
            }
            frozen = frozen.with(source, keys);
            if (keys.isEmpty()) {
                assertThat(frozen).isSameAs(previous);
            }
            for (int k = 0; k < 400; k++) { // lookups first: an overlay answers them without merging
                assertThat(frozen.get("k" + k)).isEqualTo(source.get("k" + k));
                assertThat(frozen.containsKey("k" + k)).isEqualTo(source.containsKey("k" + k));
            }
            assertThat(frozen.size()).isEqualTo(source.size());
            assertThat(frozen).isEqualTo(source);
            assertThat(frozen.keySet()).containsExactlyElementsOf(source.keySet());
            assertThat(frozen.firstKey()).isEqualTo(source.firstKey());
            assertThat(previous).isEqualTo(before); // the table it was made from did not change
        }
        FrozenRows<Integer> last = frozen;
        assertThatThrownBy(() -> last.entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> last.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }
}
