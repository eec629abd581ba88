package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovsdb.diff.CurrentState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure zone model: Kubernetes objects in, desired rows and report out. */
class ZoneModelTest {
    static final CurrentState EMPTY = t -> Optional.of(List.of());

    static Node node(String name, int i, String... extra) {
        Map<String, String> a = new HashMap<>();
        a.put(OvnAnnotations.NODE_ID, Integer.toString(i + 2));
        a.put(OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"10.244." + i + ".0/24\"]}");
        a.put(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, "{\"ipv4\":\"100.88.0." + (i + 2) + "/16\"}");
        a.put(OvnAnnotations.NODE_CHASSIS_ID, "chassis-" + name);
        a.put(OvnAnnotations.NODE_ENCAP_IPS, "[\"172.31.0." + (i + 2) + "\"]");
        for (int k = 0; k < extra.length; k += 2) {
            if (extra[k + 1] == null) {
                a.remove(extra[k]);
            } else {
                a.put(extra[k], extra[k + 1]);
            }
        }
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withResourceVersion("1")
                .withAnnotations(a)
                .endMetadata()
                .build();
    }

    /** Desired rows by table (the key functions are lambdas, equal only by identity). */
    static Map<String, Object> rows(ZoneModel.Plan p) {
        Map<String, Object> out = new HashMap<>();
        p.northbound().tables().forEach((t, s) -> out.put("nb " + t, s.rows()));
        p.southbound().tables().forEach((t, s) -> out.put("sb " + t, s.rows()));
        return out;
    }

    @Test
    void withoutItsOwnAllocationAZoneStatesNothing() {
        ZoneModel.Plan p =
                ZoneModel.plan("a", List.of(node("a", 0, OvnAnnotations.NODE_ID, null), node("b", 1)), Set.of(), EMPTY);
        assertThat(p.local()).isEmpty();
        assertThat(p.northbound().size()).isZero();
    }

    @Test
    void aChassisRegisteredByAnotherOwnerIsNeverProgrammedAsRemote() {
        ZoneModel.Plan p =
                ZoneModel.plan("a", List.of(node("a", 0), node("b", 1), node("c", 2)), Set.of("chassis-c"), EMPTY);
        assertThat(p.programmed()).containsExactly("b");
        assertThat(p.skipped())
                .extracting(s -> s.node() + ": " + s.reason())
                .containsExactly("c: chassis chassis-c is registered in this zone's SB by another owner");
        assertThat(p.encaps()).containsOnlyKeys("chassis-b");
        assertThat(p.southbound().tables().get("Chassis").rows()).hasSize(1);
    }

    @Test
    void ofTwoNodesClaimingOneSubnetOrChassisTheOlderIsProgrammedAndTheOtherReported() {
        Node older = new NodeBuilder(node("older", 1))
                .editMetadata()
                .withCreationTimestamp("2026-01-01T00:00:00Z")
                .endMetadata()
                .build();
        Node sameSubnet = new NodeBuilder(
                        node("same-subnet", 2, OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"10.244.1.0/24\"]}"))
                .editMetadata()
                .withCreationTimestamp("2026-02-01T00:00:00Z")
                .endMetadata()
                .build();
        Node sameChassis = new NodeBuilder(node("same-chassis", 3, OvnAnnotations.NODE_CHASSIS_ID, "chassis-older"))
                .editMetadata()
                .withCreationTimestamp("2026-03-01T00:00:00Z")
                .endMetadata()
                .build();
        // listed youngest first: the order of the list does not decide, the creation time does
        ZoneModel.Plan p = ZoneModel.plan("a", List.of(node("a", 0), sameChassis, sameSubnet, older), Set.of(), EMPTY);
        assertThat(p.programmed()).containsExactly("older");
        assertThat(p.problems())
                .filteredOn(pr -> pr.reason().equals("NodeAnnotationConflict"))
                .extracting(ZoneModel.NodeProblem::message)
                .containsExactly(
                        "zone a skips node same-subnet: its subnet 10.244.1.0/24 overlaps node older's 10.244.1.0/24",
                        "zone a skips node same-chassis: its chassis id chassis-older is node older's");
        assertThat(p.encaps()).containsOnlyKeys("chassis-older");
    }

    @Test
    void incompleteAndMalformedNodesAreReportedNotProgrammed() {
        ZoneModel.Plan p = ZoneModel.plan(
                "a",
                List.of(
                        node("a", 0),
                        node("b", 1, OvnAnnotations.NODE_ENCAP_IPS, null),
                        node("c", 2, OvnAnnotations.NODE_ID, "zero")),
                Set.of(),
                EMPTY);
        assertThat(p.programmed()).isEmpty();
        assertThat(p.problems())
                .filteredOn(pr -> !pr.node().equals("a"))
                .extracting(ZoneModel.NodeProblem::message)
                .containsExactlyInAnyOrder(
                        "zone a skips node b: missing k8s.ovn.org/node-encap-ips",
                        "zone a skips node c: k8s.ovn.org/node-id: not a decimal node id: \"zero\"");
    }

    @Test
    void theMemoGivesTheSameAnswerAsAFreshPlan() {
        ZoneModel.Memo memo = new ZoneModel.Memo();
        List<Node> nodes = List.of(
                node("a", 0), node("b", 1), node("c", 2, OvnAnnotations.TRUST_ZONES, "{\"__default\":[\"x\"]}"));
        ZoneModel.Plan first = ZoneModel.plan("a", nodes, Set.of(), EMPTY, memo);
        ZoneModel.Plan again = ZoneModel.plan("a", nodes, Set.of(), EMPTY, memo);
        ZoneModel.Plan fresh = ZoneModel.plan("a", nodes, Set.of(), EMPTY);
        for (ZoneModel.Plan p : List.of(first, again)) {
            assertThat(rows(p)).isEqualTo(rows(fresh));
            assertThat(p.skipped()).isEqualTo(fresh.skipped());
            assertThat(p.encaps()).isEqualTo(fresh.encaps());
        }
        assertThat(fresh.programmed()).containsExactly("b");
    }
}
