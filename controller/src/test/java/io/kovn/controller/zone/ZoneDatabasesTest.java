package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One NB cache for the process: the zone's monitors merged with the policy controller's, and the zone's view of it. */
class ZoneDatabasesTest {
    private static Row row(int n, String controller, String type) {
        return new Row(
                Uuid.of(String.format("00000000-0000-0000-0000-%012d", n)),
                Map.of(
                        "external_ids",
                        Map.of("k8s.ovn.org/owner-controller", controller, "k8s.ovn.org/owner-type", type)));
    }

    @Test
    void aMonitorOfTheWholeTableHoldsTheConditionalOnes() {
        List<TableMonitor> merged = ZoneDatabases.merged(List.of(
                IsolationModel.MONITORS.getFirst(),
                TableMonitor.all("ACL"),
                NetworkConnectReconciler.MONITORS.getFirst()));
        assertThat(merged).containsExactly(TableMonitor.all("ACL"));
        assertThat(ZoneDatabases.merged(
                        List.of(IsolationModel.MONITORS.getFirst(), NetworkConnectReconciler.MONITORS.getFirst())))
                .singleElement()
                .satisfies(m -> assertThat(m.where()).hasSize(2));
        assertThat(ZoneDatabases.merged(List.of(
                        TableMonitor.all("Logical_Switch_Port"),
                        new TableMonitor("Logical_Switch_Port", List.of("name"), List.of()))))
                .as("every column, as the zone reads them")
                .containsExactly(TableMonitor.all("Logical_Switch_Port"));
        assertThat(ZoneDatabases.merged(List.of(
                        new TableMonitor("Meter", List.of("name"), List.of()),
                        new TableMonitor("Meter", List.of("unit", "name"), List.of()))))
                .containsExactly(new TableMonitor("Meter", List.of("name", "unit"), List.of()));
    }

    @Test
    void theProcessCacheHoldsWhatTheZoneAndThePolicyControllerRead() {
        List<TableMonitor> merged = ZoneDatabases.merged(java.util.stream.Stream.concat(
                        ZoneDatabases.ZONE_NB.stream(), io.kovn.controller.policy.PolicyController.NB_MONITORS.stream())
                .toList());
        assertThat(merged)
                .contains(
                        TableMonitor.all("Logical_Switch_Port"),
                        TableMonitor.all("ACL"),
                        TableMonitor.all("Port_Group"),
                        TableMonitor.all("Address_Set"),
                        TableMonitor.all("Meter"));
    }

    @Test
    void theZoneSeesOnlyTheRowsItsOwnMonitorsWouldHold() {
        RowChange isolation =
                new RowChange.Inserted("Port_Group", row(1, "default-network-controller", "UDNIsolation"));
        RowChange policy = new RowChange.Inserted("Port_Group", row(2, "default-network-controller", "NetworkPolicy"));
        RowChange set = new RowChange.Inserted("Address_Set", row(3, "default-network-controller", "NetworkPolicy"));
        RowChange meter = new RowChange.Inserted("Meter", row(4, "default-network-controller", "Cluster"));
        RowChange router = new RowChange.Inserted("Logical_Router", row(5, "default-network-controller", "Node"));
        CacheUpdate update = new CacheUpdate(List.of(isolation, policy, set, meter, router), false);
        assertThat(ZoneDatabases.forZone(update).changes()).containsExactly(isolation, router);
        CacheUpdate zoneOnly = new CacheUpdate(List.of(isolation, router), true);
        assertThat(ZoneDatabases.forZone(zoneOnly)).isSameAs(zoneOnly);
    }
}
