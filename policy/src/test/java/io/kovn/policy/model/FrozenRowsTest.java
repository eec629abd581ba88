package io.kovn.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

        assertThat(frozen).containsExactly(java.util.Map.entry("a", 1), java.util.Map.entry("b", 2));
        assertThat(frozen.firstKey()).isEqualTo("a");
        assertThat(frozen).isEqualTo(new TreeMap<>(java.util.Map.of("a", 1, "b", 2)));
        assertThatThrownBy(() -> frozen.put("d", 4)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.values().remove(1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void frozenRowsAreTakenAsTheyAre() {
        FrozenRows<Integer> frozen = FrozenRows.of(new TreeMap<>(java.util.Map.of("a", 1)));
        assertThat(FrozenRows.of(frozen)).isSameAs(frozen);
        DesiredPolicyState state = new DesiredPolicyState(FrozenRows.of(new TreeMap<>()), FrozenRows.of(new TreeMap<>()),
                new TreeMap<>(), java.util.List.of(), PriorityAssignment.EMPTY, null);
        assertThat(FrozenRows.of(state.acls())).isSameAs(state.acls());
    }
}
