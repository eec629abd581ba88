package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.RowKey;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class OwnWritesTest {
    static final Uuid SET = Uuid.random();
    static final Uuid GROUP = Uuid.random();
    static final Uuid GONE = Uuid.random();
    static final Uuid OTHER = Uuid.random();

    static Row row(Uuid uuid, String id) {
        return new Row(uuid, Map.of("external_ids", Map.of(Owner.ID, id)));
    }

    static final Owner OURS = Owner.controller("default-network-controller");

    static Row ours(Uuid uuid, String id) {
        return new Row(
                uuid,
                Map.of("external_ids", Map.of(Owner.OWNER_CONTROLLER, "default-network-controller", Owner.ID, id)));
    }

    /** ACLs: anp:0 desired, anp:1 and anp:2 in scope, anp:3 not. */
    static final DesiredState DESIRED = DesiredState.builder()
            .scope("ACL", RowKey.externalId(), List.of("anp:0", "anp:1", "anp:2"))
            .add(Desired.of("ACL", Map.of("priority", 1000L, "external_ids", Map.of(Owner.ID, "anp:0"))))
            .build();

    final OwnWrites write = OwnWrites.of(
            List.of(
                    Ops.insert("ACL", Map.of("priority", 1000L, "external_ids", Map.of(Owner.ID, "anp:0"))),
                    Ops.mutate("Address_Set", SET, Mutation.insert("addresses", Set.of("10.0.0.5"))),
                    Ops.update("Port_Group", GROUP, Map.of("ports", Set.of())),
                    Ops.delete("Address_Set", GONE)),
            OURS,
            DESIRED);

    @Test
    void theRowsATransactionWritesAreItsOwnChanges() {
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:0"))))
                .isTrue();
        assertThat(write.covers(new RowChange.Updated(
                        "Address_Set", set(SET, "as", "10.0.0.1"), set(SET, "as", "10.0.0.1", "10.0.0.5"))))
                .isTrue();
        assertThat(write.covers(new RowChange.Updated(
                        "Port_Group",
                        new Row(GROUP, Map.of("ports", Set.of(OTHER))),
                        new Row(GROUP, Map.of("ports", Set.of())))))
                .isTrue();
        assertThat(write.covers(new RowChange.Deleted("Address_Set", row(GONE, "gone"))))
                .isTrue();
    }

    @Test
    void aSecondChangeOfAWrittenRowOrASecondInsertOfAnIdIsSomeoneElses() {
        RowChange added = new RowChange.Updated(
                "Address_Set", set(SET, "as", "10.0.0.1"), set(SET, "as", "10.0.0.1", "10.0.0.5"));
        assertThat(write.covers(added)).isTrue();
        assertThat(write.covers(added)).isFalse();
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:0"))))
                .isTrue();
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:0"))))
                .isFalse();
    }

    static Row set(Uuid uuid, String name, String... addresses) {
        return new Row(
                uuid, Map.of("name", name, "addresses", Set.of(addresses), "external_ids", Map.of(Owner.ID, "set")));
    }

    @Test
    void aChangeIsOwnOnlyWhenItIsWhatTheOperationsMakeOfTheOldRow() {
        List<Operation> add = List.of(Ops.mutate("Address_Set", SET, Mutation.insert("addresses", Set.of("10.0.0.5"))));
        Row old = set(SET, "as", "10.0.0.1", "10.0.0.2");
        assertThat(OwnWrites.madeBy(add, old, set(SET, "as", "10.0.0.1", "10.0.0.2", "10.0.0.5")))
                .isTrue();
        // someone else's commit in the same update: an address more, one fewer, or another column changed
        assertThat(OwnWrites.madeBy(add, old, set(SET, "as", "10.0.0.1", "10.0.0.2", "10.0.0.5", "10.9.9.9")))
                .isFalse();
        assertThat(OwnWrites.madeBy(add, old, set(SET, "as", "10.0.0.1", "10.0.0.5")))
                .isFalse();
        assertThat(OwnWrites.madeBy(add, old, set(SET, "renamed", "10.0.0.1", "10.0.0.2", "10.0.0.5")))
                .isFalse();
        // a delete and an insert in one mutate; an element already there changes nothing
        List<Operation> swap = List.of(Ops.mutate(
                "Address_Set",
                SET,
                Mutation.delete("addresses", Set.of("10.0.0.1")),
                Mutation.insert("addresses", Set.of("10.0.0.2", "10.0.0.7"))));
        assertThat(OwnWrites.madeBy(swap, old, set(SET, "as", "10.0.0.2", "10.0.0.7")))
                .isTrue();
        assertThat(OwnWrites.madeBy(swap, old, set(SET, "as", "10.0.0.1", "10.0.0.2", "10.0.0.7")))
                .isFalse();
        // a rewrite holds exactly what was written
        List<Operation> rewrite = List.of(Ops.update("Address_Set", SET, Map.of("addresses", Set.of("10.0.0.3"))));
        assertThat(OwnWrites.madeBy(rewrite, old, set(SET, "as", "10.0.0.3"))).isTrue();
        assertThat(OwnWrites.madeBy(rewrite, old, set(SET, "as", "10.0.0.3", "10.0.0.4")))
                .isFalse();
        // references to rows the transaction inserts cannot be checked here: taken as written
        Row pg = new Row(GROUP, Map.of("name", "pg", "acls", Set.of(OTHER)));
        assertThat(OwnWrites.madeBy(
                        List.of(Ops.mutate(
                                "Port_Group", GROUP, Mutation.insert("acls", Set.of(new NamedUuid("acl0"))))),
                        pg,
                        new Row(GROUP, Map.of("name", "pg", "acls", Set.of(OTHER, Uuid.random())))))
                .isTrue();
    }

    /**
     * Someone else's commit in the same update that swaps other elements of the set the transaction mutates keeps the
     * size the operations give: only the server's diff of the column tells.
     */
    @Test
    void theServersColumnDiffShowsASwapOfOtherElementsInTheSameUpdate() {
        List<Operation> add = List.of(Ops.mutate("Address_Set", SET, Mutation.insert("addresses", Set.of("10.0.0.5"))));
        Row old = set(SET, "as", "10.0.0.1", "10.0.0.2");
        Row swapped =
                set(SET, "as", "10.0.0.1", "10.0.0.5", "10.0.0.9"); // ours added .5; someone else swapped .2 for .9
        assertThat(OwnWrites.madeBy(add, old, swapped))
                .as("by whole rows: looks like ours")
                .isTrue();
        assertThat(OwnWrites.madeBy(add, old, swapped, Map.of("addresses", Set.of("10.0.0.2", "10.0.0.5", "10.0.0.9"))))
                .isFalse();
        assertThat(OwnWrites.madeBy(
                        add,
                        old,
                        set(SET, "as", "10.0.0.1", "10.0.0.2", "10.0.0.5"),
                        Map.of("addresses", Set.of("10.0.0.5"))))
                .isTrue();
        // the same through covers(): a change the monitor reported with its diff
        OwnWrites mutate = OwnWrites.of(add, OURS, DESIRED);
        assertThat(mutate.covers(new RowChange.Updated(
                        "Address_Set", old, swapped, Map.of("addresses", Set.of("10.0.0.2", "10.0.0.5", "10.0.0.9")))))
                .isFalse();
        // an element the operations insert that was already there toggles nothing
        assertThat(OwnWrites.madeBy(add, set(SET, "as", "10.0.0.5"), set(SET, "as", "10.0.0.5"), Map.of()))
                .isTrue();
    }

    @Test
    void aRowTheWriteCoversAndDoesNotWantGoesWithIt() {
        // e.g. an ACL garbage-collected when the write drops it from its port group
        assertThat(write.covers(new RowChange.Deleted("ACL", ours(OTHER, "anp:1"))))
                .isTrue();
        // deleting a row it wants, a row outside its scope, or someone else's row is not its doing
        assertThat(write.covers(new RowChange.Deleted("ACL", ours(OTHER, "anp:0"))))
                .isFalse();
        assertThat(write.covers(new RowChange.Deleted("ACL", ours(OTHER, "anp:3"))))
                .isFalse();
        assertThat(write.covers(new RowChange.Deleted("ACL", row(OTHER, "anp:2"))))
                .isFalse();
        assertThat(write.covers(new RowChange.Deleted("Port_Group", ours(OTHER, "pg"))))
                .isFalse();
    }

    @Test
    void aPortGroupLosingOnlyPortsThatAreGoneIsTheServerDroppingWeakReferences() {
        Uuid gone = Uuid.random();
        Uuid kept = Uuid.random();
        Uuid added = Uuid.random();
        Predicate<Uuid> exists = u -> !u.equals(gone);
        Row before = new Row(
                GROUP, Map.of("name", "pg", "ports", Set.of(gone, kept), "external_ids", Map.of(Owner.ID, "pg")));
        Row after = new Row(GROUP, Map.of("name", "pg", "ports", Set.of(kept), "external_ids", Map.of(Owner.ID, "pg")));
        assertThat(OwnWrites.droppedGonePorts(new RowChange.Updated("Port_Group", before, after), exists))
                .isTrue();
        // a port that still exists taken out, a port added, or another column changed: someone's write
        assertThat(OwnWrites.droppedGonePorts(
                        new RowChange.Updated(
                                "Port_Group",
                                before,
                                new Row(
                                        GROUP,
                                        Map.of(
                                                "name",
                                                "pg",
                                                "ports",
                                                Set.of(gone),
                                                "external_ids",
                                                Map.of(Owner.ID, "pg")))),
                        exists))
                .isFalse();
        assertThat(OwnWrites.droppedGonePorts(
                        new RowChange.Updated(
                                "Port_Group",
                                before,
                                new Row(
                                        GROUP,
                                        Map.of(
                                                "name",
                                                "pg",
                                                "ports",
                                                Set.of(kept, added),
                                                "external_ids",
                                                Map.of(Owner.ID, "pg")))),
                        exists))
                .isFalse();
        assertThat(OwnWrites.droppedGonePorts(
                        new RowChange.Updated(
                                "Port_Group",
                                before,
                                new Row(
                                        GROUP,
                                        Map.of(
                                                "name",
                                                "pg2",
                                                "ports",
                                                Set.of(kept),
                                                "external_ids",
                                                Map.of(Owner.ID, "pg")))),
                        exists))
                .isFalse();
        assertThat(OwnWrites.droppedGonePorts(new RowChange.Deleted("Port_Group", before), exists))
                .isFalse();
    }

    @Test
    void anyOtherChangeMeanwhileIsSomeoneElses() {
        assertThat(write.covers(new RowChange.Updated("ACL", row(OTHER, "anp:1"), row(OTHER, "anp:1"))))
                .isFalse();
        assertThat(write.covers(new RowChange.Deleted("ACL", row(OTHER, "anp:1"))))
                .isFalse();
        // an insert with an id this write does not insert, or in another table
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:9"))))
                .isFalse();
        assertThat(write.covers(new RowChange.Inserted("Address_Set", row(Uuid.random(), "anp:0"))))
                .isFalse();
        assertThat(write.covers(new RowChange.Inserted("ACL", new Row(Uuid.random(), Map.of("priority", 1L)))))
                .isFalse();
        assertThat(OwnWrites.NONE.covers(new RowChange.Updated("Address_Set", row(SET, "set"), row(SET, "set"))))
                .isFalse();
    }
}
