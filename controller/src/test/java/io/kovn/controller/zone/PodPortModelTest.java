package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.topology.PodPort;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Attachment;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One pod's desired switch port: records in, scoped desired rows out. */
class PodPortModelTest {
    static final ObjectKey WEB = new ObjectKey("default", "web");
    static final PodPort PORT =
            new PodPort("default", "web", "0a:58:0a:f4:00:05", List.of(IpPrefix.parse("10.244.0.5/24")));
    static final Uuid SWITCH = Uuid.of("00000000-0000-0000-0000-000000000001");
    static final String ID = "default-network-controller:Pod:default/web";

    @Test
    void aPodWithItsAddressesHasOnePortAttachedToTheNodeSwitchScopedToItsKey() {
        DesiredState d = PodPortModel.desired(WEB, Optional.of(PORT), Optional.of(SWITCH))
                .orElseThrow();
        DesiredState.TableState lsp = d.tables().get("Logical_Switch_Port");
        assertThat(d.tables()).containsOnlyKeys("Logical_Switch_Port");
        assertThat(lsp.scope()).contains(Set.of(ID));
        Desired row = lsp.rows().get(ID);
        assertThat(row.attachments()).containsExactly(new Attachment("Logical_Switch", SWITCH, "ports"));
        assertThat(row.columns())
                .containsEntry("name", "default_web")
                .containsEntry("port_security", Set.of("0a:58:0a:f4:00:05 10.244.0.5"));
        assertThat(PodPortModel.owner(WEB).owns((Map<?, ?>) row.columns().get("external_ids")))
                .isTrue();
        assertThat(PodPortModel.owner(new ObjectKey("default", "other"))
                        .owns((Map<?, ?>) row.columns().get("external_ids")))
                .isFalse();
    }

    @Test
    void aPodWithoutAPortStatesNoRowSoItsRowsAreStaleEvenWithoutASwitch() {
        DesiredState d =
                PodPortModel.desired(WEB, Optional.empty(), Optional.empty()).orElseThrow();
        assertThat(d.tables().get("Logical_Switch_Port").rows()).isEmpty();
        assertThat(d.tables().get("Logical_Switch_Port").scope()).contains(Set.of(ID));
    }

    @Test
    void aPortWaitsForTheNodeSwitchAndMustBeThePodsOwn() {
        assertThat(PodPortModel.desired(WEB, Optional.of(PORT), Optional.empty()))
                .isEmpty();
        assertThatThrownBy(() ->
                        PodPortModel.desired(new ObjectKey("default", "other"), Optional.of(PORT), Optional.of(SWITCH)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theNodeSwitchIsKovnsRowUnderItsIdWithTheLowestUuid() {
        String id = ZoneTopology.nodeId("node-a", "switch").primaryId();
        Map<String, String> kovn = Map.of(
                "k8s.ovn.org/owner-controller",
                "default-network-controller",
                "k8s.ovn.org/owner-type",
                "Node",
                "k8s.ovn.org/id",
                id);
        Row foreign = new Row(
                Uuid.of("00000000-0000-0000-0000-000000000000"),
                Map.of("name", "node-a", "external_ids", Map.of("k8s.ovn.org/id", id)));
        Row second = new Row(
                Uuid.of("00000000-0000-0000-0000-000000000009"), Map.of("name", "node-a", "external_ids", kovn));
        Row first = new Row(SWITCH, Map.of("name", "node-a", "external_ids", kovn));
        CurrentState nb = CurrentState.of(Map.of("Logical_Switch", List.of(foreign, second, first)));
        assertThat(PodPortModel.nodeSwitch("node-a", nb)).contains(SWITCH);
        assertThat(PodPortModel.nodeSwitch("node-b", nb)).isEmpty();
    }

    @Test
    void aPodPortRowNamesItsPod() {
        Row port = new Row(
                SWITCH,
                Map.of(
                        "external_ids",
                        Map.of(
                                "k8s.ovn.org/owner-controller",
                                "default-network-controller",
                                "k8s.ovn.org/owner-type",
                                "Pod",
                                "k8s.ovn.org/name",
                                "default/web",
                                "k8s.ovn.org/id",
                                ID)));
        Row node = new Row(
                SWITCH,
                Map.of(
                        "external_ids",
                        Map.of(
                                "k8s.ovn.org/owner-controller",
                                "default-network-controller",
                                "k8s.ovn.org/owner-type",
                                "Node",
                                "k8s.ovn.org/name",
                                "node-a")));
        assertThat(PodPortModel.podOf(port)).contains(WEB);
        assertThat(PodPortModel.podOf(node)).isEmpty();
    }
}
