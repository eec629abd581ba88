package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.data.FrozenValue;
import io.kovn.ovsdb.data.PatchedValue;
import io.kovn.policy.model.FrozenSortedSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A translation's frozen set crosses into OVSDB rows as a view: no copy, and equal to the sets it is compared with. */
class FrozenAddressesTest {
    private static final List<String> ADDRESSES = List.of("10.0.0.3", "10.0.0.1", "fd00::2", "10.0.0.2");

    @Test
    void aGeneratedRowKeepsTheViewInsteadOfCopyingIt() {
        FrozenAddresses view = FrozenAddresses.of(FrozenSortedSet.of(ADDRESSES));

        AddressSet row = AddressSet.newRow().withAddresses(view);

        assertThat(view).isInstanceOf(FrozenValue.class);
        assertThat(row.addresses()).isSameAs(view);
    }

    @Test
    void theViewEqualsEverySetOfTheSameAddressesBothWays() {
        FrozenAddresses view = FrozenAddresses.of(FrozenSortedSet.of(ADDRESSES));
        Set<Object> decoded = AtomSet.of(ADDRESSES.toArray(), ADDRESSES.size()); // as the monitor cache holds it
        Set<String> plain = Set.copyOf(ADDRESSES);

        for (Set<?> other : List.of(decoded, plain, new TreeSet<>(ADDRESSES), FrozenSortedSet.of(ADDRESSES))) {
            assertThat(view.equals(other)).as("view = %s", other.getClass()).isTrue();
            assertThat(other.equals(view)).as("%s = view", other.getClass()).isTrue();
            assertThat(view.hashCode()).isEqualTo(other.hashCode());
        }
        assertThat(view).isEqualTo(FrozenAddresses.of(FrozenSortedSet.of(ADDRESSES)));
        assertThat(view).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.3", "fd00::2");
        assertThat(view.contains("10.0.0.2")).isTrue();
        assertThat(view.contains("10.0.0.9")).isFalse();
        assertThat(view).isNotEqualTo(FrozenAddresses.of(FrozenSortedSet.of(List.of("10.0.0.1"))));
    }

    @Test
    void aPatchedSetTellsItsChangeFromTheViewOfTheSetItWasPatchedFromOnly() {
        FrozenSortedSet before = FrozenSortedSet.of(ADDRESSES);
        FrozenSortedSet after = before.patched(List.of("10.0.0.9"), List.of("10.0.0.2"));
        FrozenAddresses was = FrozenAddresses.of(before);

        assertThat(FrozenAddresses.of(after).changeFrom(was))
                .contains(new PatchedValue.Change(List.of("10.0.0.9"), List.of("10.0.0.2")));
        // an equal set that is not the origin, a plain set, a later set: no change known
        assertThat(FrozenAddresses.of(after).changeFrom(FrozenAddresses.of(FrozenSortedSet.of(ADDRESSES))))
                .isEmpty();
        assertThat(FrozenAddresses.of(after).changeFrom(Set.copyOf(ADDRESSES))).isEmpty();
        assertThat(was.changeFrom(FrozenAddresses.of(after))).isEmpty();
    }
}
