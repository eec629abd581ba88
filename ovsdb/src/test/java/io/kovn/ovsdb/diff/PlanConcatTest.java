package io.kovn.ovsdb.diff;

import static io.kovn.ovsdb.diff.DiffTest.NB;
import static io.kovn.ovsdb.diff.DiffTest.OWNER;
import static io.kovn.ovsdb.diff.DiffTest.U1;
import static io.kovn.ovsdb.diff.DiffTest.U2;
import static io.kovn.ovsdb.diff.DiffTest.U3;
import static io.kovn.ovsdb.diff.DiffTest.ids;
import static io.kovn.ovsdb.diff.DiffTest.podPort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Several owners' plans in, one transaction's exact operations out. */
class PlanConcatTest {
    private static final Row SWITCH =
            new Row(U1, Map.of("name", "node1", "ports", Set.of(U2), "external_ids", Map.of()));
    private static final Row OLD =
            new Row(U2, Map.of("name", "old", "addresses", Set.of("a"), "external_ids", ids("old")));
    private static final Map<String, List<Row>> CURRENT =
            Map.of("Logical_Switch", List.of(SWITCH), "Logical_Switch_Port", List.of(OLD));

    /** One key's plan, scoped as a pod's is. */
    private static Plan planOf(String key, Desired row) {
        DesiredState.Builder b = DesiredState.builder().scope("Logical_Switch_Port", RowKey.externalId(), Set.of(key));
        if (row != null) {
            b.add(row);
        }
        return Diff.of(NB, OWNER, b.build(), CurrentState.of(CURRENT));
    }

    @Test
    void insertsKeepDistinctNamesAndAttachmentsToOneParentBecomeOneMutate() {
        Plan a = planOf("a", podPort("a", U1));
        Plan b = planOf("b", podPort("b", U1));
        Plan gone = planOf("old", null);
        Plan changed = planOf("old", podPort("old", U1).with("addresses", Set.of("b")));

        assertThat(Plan.concat(List.of(a, b, gone)).operations())
                .containsExactly(
                        new Operation.Insert(
                                "Logical_Switch_Port", Map.of("name", "a", "external_ids", ids("a")), "p0_row0"),
                        new Operation.Insert(
                                "Logical_Switch_Port", Map.of("name", "b", "external_ids", ids("b")), "p1_row0"),
                        Ops.mutate(
                                "Logical_Switch",
                                U1,
                                Mutation.delete("ports", Set.of(U2)),
                                Mutation.insert("ports", Set.of(new NamedUuid("p0_row0"), new NamedUuid("p1_row0")))));
        assertThat(Plan.concat(List.of(a, changed)).operations())
                .containsExactly(
                        new Operation.Insert(
                                "Logical_Switch_Port", Map.of("name", "a", "external_ids", ids("a")), "p0_row0"),
                        Ops.update("Logical_Switch_Port", U2, Map.of("addresses", Set.of("b"))),
                        Ops.mutate("Logical_Switch", U1, Mutation.insert("ports", Set.of(new NamedUuid("p0_row0")))));
        assertThat(Plan.concat(List.of(a, b, gone)).counts()).isEqualTo(new Plan.Counts(2, 0, 1, 0));
    }

    @Test
    void oneOrNoPlanIsItself() {
        Plan a = planOf("a", podPort("a", U1));
        assertThat(Plan.concat(List.of(a))).isEqualTo(a);
        assertThat(Plan.concat(List.of()).isEmpty()).isTrue();
        assertThat(Plan.concat(List.of(planOf("old", podPort("old", U1).with("addresses", Set.of("a"))), a))
                        .operations())
                .hasSize(2);
    }

    @Test
    void plansThatInsertWhatAnotherDeletesAreNotDisjoint() {
        Plan attach = Plan.of(List.of(Ops.mutate("Logical_Switch", U1, Mutation.insert("ports", Set.of(U3)))));
        Plan detach = Plan.of(List.of(Ops.mutate("Logical_Switch", U1, Mutation.delete("ports", Set.of(U3)))));
        assertThatThrownBy(() -> Plan.concat(List.of(attach, detach)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not disjoint");
    }

    @Test
    void arithmeticMutatesAreKeptApart() {
        Operation add = Ops.mutate("Logical_Switch", U1, Mutation.add("other", 1));
        assertThat(Plan.concat(List.of(Plan.of(List.of(add)), Plan.of(List.of(add))))
                        .operations())
                .containsExactly(add, add);
    }
}
