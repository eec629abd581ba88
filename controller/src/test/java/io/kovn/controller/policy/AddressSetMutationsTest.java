package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.FrozenSortedSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Address-set writes from the translation: exactly the diff's operations, only for rows it can vouch for. */
class AddressSetMutationsTest {
    private static final Uuid ROW = new Uuid(UUID.randomUUID().toString());

    private static DesiredAddressSet set(String name, String... ips) {
        return new DesiredAddressSet(
                name,
                Map.of("k8s.ovn.org/id", "id-" + name, "k8s.ovn.org/owner-controller", "c"),
                new TreeSet<>(List.of(ips)));
    }

    @Test
    void aChangedSetIsOneMutateOfTheMovedAddresses() {
        var r = AddressSetMutations.of(
                Set.of("id-a"),
                Map.of("a", set("a", "10.0.0.1", "10.0.0.2", "10.0.0.3")),
                Map.of("a", set("a", "10.0.0.2", "10.0.0.3", "10.0.0.4")),
                Set.of(),
                id -> List.of(ROW));
        assertThat(r.handled()).containsExactly("id-a");
        assertThat(r.operations())
                .containsExactly(new Operation.Mutate(
                        "Address_Set",
                        List.of(Condition.uuid(ROW)),
                        List.of(
                                Mutation.delete("addresses", Set.of("10.0.0.1")),
                                Mutation.insert("addresses", Set.of("10.0.0.4")))));
    }

    @Test
    void aSetPatchedFromTheWrittenOneIsWrittenFromItsDeltaAlike() {
        var written = FrozenSortedSet.of(List.of("10.0.0.1", "10.0.0.2", "10.0.0.3"));
        var patched = written.patched(List.of("10.0.0.4"), List.of("10.0.0.1"));
        assertThat(patched.deltaFrom(written)).isPresent();
        // the same operations as the walk over equal sets that share no history
        assertThat(AddressSetMutations.change(ROW, written, patched))
                .isEqualTo(AddressSetMutations.change(ROW, new TreeSet<>(written), new TreeSet<>(patched)));
        assertThat(AddressSetMutations.change(ROW, written, patched))
                .contains(new Operation.Mutate(
                        "Address_Set",
                        List.of(Condition.uuid(ROW)),
                        List.of(
                                Mutation.delete("addresses", Set.of("10.0.0.1")),
                                Mutation.insert("addresses", Set.of("10.0.0.4")))));
    }

    @Test
    void aMostlyNewSetIsRewrittenAndAnEqualOneWritesNothing() {
        var r = AddressSetMutations.of(
                Set.of("id-a", "id-b"),
                Map.of("a", set("a", "10.0.0.1"), "b", set("b", "10.0.0.9")),
                Map.of("a", set("a", "10.0.0.2"), "b", set("b", "10.0.0.9")),
                Set.of(),
                id -> List.of(ROW));
        assertThat(r.handled()).containsExactlyInAnyOrder("id-a", "id-b");
        assertThat(r.operations()).hasSize(1).first().isInstanceOf(Operation.Update.class);
    }

    @Test
    void newDriftedOrAmbiguousRowsAreLeftToTheDiff() {
        Map<String, DesiredAddressSet> before =
                Map.of("a", set("a", "10.0.0.1"), "b", set("b", "10.0.0.1"), "c", set("c", "10.0.0.1"));
        Map<String, DesiredAddressSet> after = Map.of(
                "a",
                set("a", "10.0.0.2"),
                "b",
                set("b", "10.0.0.2"),
                "c",
                set("c", "10.0.0.2"),
                "d",
                set("d", "10.0.0.2"));
        var r = AddressSetMutations.of(
                Set.of("id-a", "id-b", "id-c", "id-d"),
                before,
                after,
                Set.of("id-a"),
                id -> id.equals("id-b") ? List.of() : id.equals("id-c") ? List.of(ROW, ROW) : List.of(ROW));
        assertThat(r.handled()).isEmpty(); // a drifted, b has no row, c two rows, d is new
        assertThat(r.operations()).isEmpty();
    }
}
