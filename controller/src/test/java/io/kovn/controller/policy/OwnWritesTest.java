package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.RowKey;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Ops;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        return new Row(uuid, Map.of("external_ids", Map.of(Owner.OWNER_CONTROLLER, "default-network-controller", Owner.ID, id)));
    }

    /** ACLs: anp:0 desired, anp:1 and anp:2 in scope, anp:3 not. */
    static final DesiredState DESIRED = DesiredState.builder()
            .scope("ACL", RowKey.externalId(), List.of("anp:0", "anp:1", "anp:2"))
            .add(Desired.of("ACL", Map.of("priority", 1000L, "external_ids", Map.of(Owner.ID, "anp:0"))))
            .build();

    final OwnWrites write = OwnWrites.of(List.of(
            Ops.insert("ACL", Map.of("priority", 1000L, "external_ids", Map.of(Owner.ID, "anp:0"))),
            Ops.mutate("Address_Set", SET, Mutation.insert("addresses", Set.of("10.0.0.5"))),
            Ops.update("Port_Group", GROUP, Map.of("ports", Set.of())),
            Ops.delete("Address_Set", GONE)), OURS, DESIRED);

    @Test
    void theRowsATransactionWritesAreItsOwnChanges() {
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:0")))).isTrue();
        assertThat(write.covers(new RowChange.Updated("Address_Set", row(SET, "set"), row(SET, "set")))).isTrue();
        assertThat(write.covers(new RowChange.Updated("Port_Group", row(GROUP, "pg"), row(GROUP, "pg")))).isTrue();
        assertThat(write.covers(new RowChange.Deleted("Address_Set", row(GONE, "gone")))).isTrue();
    }

    @Test
    void aSecondChangeOfAWrittenRowOrASecondInsertOfAnIdIsSomeoneElses() {
        assertThat(write.covers(new RowChange.Updated("Address_Set", row(SET, "set"), row(SET, "set")))).isTrue();
        assertThat(write.covers(new RowChange.Updated("Address_Set", row(SET, "set"), row(SET, "set")))).isFalse();
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:0")))).isTrue();
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:0")))).isFalse();
    }

    @Test
    void aRowTheWriteCoversAndDoesNotWantGoesWithIt() {
        // e.g. an ACL garbage-collected when the write drops it from its port group
        assertThat(write.covers(new RowChange.Deleted("ACL", ours(OTHER, "anp:1")))).isTrue();
        // deleting a row it wants, a row outside its scope, or someone else's row is not its doing
        assertThat(write.covers(new RowChange.Deleted("ACL", ours(OTHER, "anp:0")))).isFalse();
        assertThat(write.covers(new RowChange.Deleted("ACL", ours(OTHER, "anp:3")))).isFalse();
        assertThat(write.covers(new RowChange.Deleted("ACL", row(OTHER, "anp:2")))).isFalse();
        assertThat(write.covers(new RowChange.Deleted("Port_Group", ours(OTHER, "pg")))).isFalse();
    }

    @Test
    void aPortGroupLosingOnlyPortsThatAreGoneIsTheServerDroppingWeakReferences() {
        Uuid gone = Uuid.random();
        Uuid kept = Uuid.random();
        Uuid added = Uuid.random();
        java.util.function.Predicate<Uuid> exists = u -> !u.equals(gone);
        Row before = new Row(GROUP, Map.of("name", "pg", "ports", Set.of(gone, kept), "external_ids", Map.of(Owner.ID, "pg")));
        Row after = new Row(GROUP, Map.of("name", "pg", "ports", Set.of(kept), "external_ids", Map.of(Owner.ID, "pg")));
        assertThat(OwnWrites.droppedGonePorts(new RowChange.Updated("Port_Group", before, after), exists)).isTrue();
        // a port that still exists taken out, a port added, or another column changed: someone's write
        assertThat(OwnWrites.droppedGonePorts(new RowChange.Updated("Port_Group", before,
                new Row(GROUP, Map.of("name", "pg", "ports", Set.of(gone), "external_ids", Map.of(Owner.ID, "pg")))), exists)).isFalse();
        assertThat(OwnWrites.droppedGonePorts(new RowChange.Updated("Port_Group", before,
                new Row(GROUP, Map.of("name", "pg", "ports", Set.of(kept, added), "external_ids", Map.of(Owner.ID, "pg")))), exists)).isFalse();
        assertThat(OwnWrites.droppedGonePorts(new RowChange.Updated("Port_Group", before,
                new Row(GROUP, Map.of("name", "pg2", "ports", Set.of(kept), "external_ids", Map.of(Owner.ID, "pg")))), exists)).isFalse();
        assertThat(OwnWrites.droppedGonePorts(new RowChange.Deleted("Port_Group", before), exists)).isFalse();
    }

    @Test
    void anyOtherChangeMeanwhileIsSomeoneElses() {
        assertThat(write.covers(new RowChange.Updated("ACL", row(OTHER, "anp:1"), row(OTHER, "anp:1")))).isFalse();
        assertThat(write.covers(new RowChange.Deleted("ACL", row(OTHER, "anp:1")))).isFalse();
        // an insert with an id this write does not insert, or in another table
        assertThat(write.covers(new RowChange.Inserted("ACL", row(Uuid.random(), "anp:9")))).isFalse();
        assertThat(write.covers(new RowChange.Inserted("Address_Set", row(Uuid.random(), "anp:0")))).isFalse();
        assertThat(write.covers(new RowChange.Inserted("ACL", new Row(Uuid.random(), Map.of("priority", 1L))))).isFalse();
        assertThat(OwnWrites.NONE.covers(new RowChange.Updated("Address_Set", row(SET, "set"), row(SET, "set")))).isFalse();
    }
}
