package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Exact operations of the Encap step: rows in, operations out. */
class EncapSyncTest {
    static final Map<String, String> OWNED = Map.of(
            "k8s.ovn.org/owner-controller",
            "default-network-controller",
            "k8s.ovn.org/owner-type",
            "RemoteZone",
            "k8s.ovn.org/id",
            "x");

    static Map<String, Object> encap(String chassis, String ip) {
        return Map.of("type", "geneve", "ip", ip, "chassis_name", chassis, "options", Map.of("csum", "true"));
    }

    @Test
    void aNewChassisIsInsertedWithItsEncapsInTheSameTransaction() {
        Operation.Insert chassis = new Operation.Insert("Chassis", Map.of("name", "ch-b", "hostname", "b"), "row0");
        Plan out = EncapSync.augment(
                Plan.of(List.of(chassis)),
                Map.of("ch-b", List.of(encap("ch-b", "172.31.0.2"))),
                t -> Optional.of(List.of()),
                ZoneModel.OWNER);
        assertThat(out.operations())
                .containsExactly(
                        new Operation.Insert("Encap", encap("ch-b", "172.31.0.2"), "encap0"),
                        new Operation.Insert(
                                "Chassis",
                                Map.of("name", "ch-b", "hostname", "b", "encaps", Set.of(new NamedUuid("encap0"))),
                                "row0"));
    }

    @Test
    void anExistingChassisGetsOnlyTheEncapDifference() {
        Uuid ch = Uuid.random();
        Uuid keep = Uuid.random();
        Uuid drop = Uuid.random();
        Row chassis = new Row(ch, Map.of("name", "ch-b", "external_ids", OWNED, "encaps", Set.of(keep, drop)));
        Row e1 = new Row(keep, encap("ch-b", "172.31.0.2"));
        Row e2 = new Row(drop, encap("ch-b", "172.31.0.99"));
        CurrentState sb = CurrentState.of(Map.of("Chassis", List.of(chassis), "Encap", List.of(e1, e2)));
        Plan out = EncapSync.augment(
                Plan.of(List.of()),
                Map.of("ch-b", List.of(encap("ch-b", "172.31.0.2"), encap("ch-b", "172.31.0.3"))),
                sb,
                ZoneModel.OWNER);
        assertThat(out.operations())
                .containsExactly(
                        new Operation.Insert("Encap", encap("ch-b", "172.31.0.3"), "encap0"),
                        Ops.mutate(
                                "Chassis",
                                ch,
                                Mutation.insert("encaps", Set.of(new NamedUuid("encap0"))),
                                Mutation.delete("encaps", Set.of(drop))));
    }

    @Test
    void convergedEncapsAddNothingAndForeignChassisAreIgnored() {
        Uuid ch = Uuid.random();
        Uuid e = Uuid.random();
        Row ours = new Row(ch, Map.of("name", "ch-b", "external_ids", OWNED, "encaps", Set.of(e)));
        Row foreign = new Row(Uuid.random(), Map.of("name", "ch-local", "external_ids", Map.of(), "encaps", Set.of()));
        CurrentState sb = CurrentState.of(
                Map.of("Chassis", List.of(ours, foreign), "Encap", List.of(new Row(e, encap("ch-b", "172.31.0.2")))));
        Plan empty = Plan.of(List.of());
        assertThat(EncapSync.augment(
                        empty,
                        Map.of(
                                "ch-b",
                                List.of(encap("ch-b", "172.31.0.2")),
                                "ch-local",
                                List.of(encap("ch-local", "172.31.0.1"))),
                        sb,
                        ZoneModel.OWNER))
                .isSameAs(empty);
    }
}
