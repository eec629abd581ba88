package io.kovn.ovn.generated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.OvnNorthboundSchema;
import io.kovn.ovn.sb.Encap;
import io.kovn.ovn.sb.OvnSouthboundSchema;
import io.kovn.ovs.vswitch.OpenVSwitchSchema;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.TypedRow;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class GeneratedRowsTest {

    @Test
    void everyNorthboundTableRoundTripsThroughRow() {
        assertRoundTrips(SampleRows.schema("ovn-nb.ovsschema"), OvnNorthboundSchema.READERS);
    }

    @Test
    void everySouthboundTableRoundTripsThroughRow() {
        assertRoundTrips(SampleRows.schema("ovn-sb.ovsschema"), OvnSouthboundSchema.READERS);
    }

    @Test
    void everyVswitchTableRoundTripsThroughRow() {
        assertRoundTrips(SampleRows.schema("vswitch.ovsschema"), OpenVSwitchSchema.READERS);
    }

    private static void assertRoundTrips(DatabaseSchema schema, Map<String, Function<Row, TypedRow>> readers) {
        assertThat(readers.keySet()).isEqualTo(schema.tables().keySet());
        for (TableSchema table : schema.tables().values()) {
            Row row = SampleRows.fullRow(table);
            TypedRow typed = readers.get(table.name()).apply(row);
            assertThat(typed.tableName()).isEqualTo(table.name());
            assertThat(typed.uuid()).isEqualTo(row.uuid());
            assertThat(typed.toColumns()).as(table.name()).isEqualTo(row.columns());
            assertThat(readers.get(table.name()).apply(new Row(row.uuid(), typed.toColumns())))
                    .as(table.name())
                    .isEqualTo(typed);
        }
    }

    @Test
    void schemaClassCarriesTheVersionOfTheSchemaFile() {
        DatabaseSchema nb = SampleRows.schema("ovn-nb.ovsschema");
        assertThat(OvnNorthboundSchema.NAME).isEqualTo("OVN_Northbound");
        assertThat(OvnNorthboundSchema.VERSION).isEqualTo(nb.version().toString());
        assertThat(OvnNorthboundSchema.CKSUM).isEqualTo(nb.cksum());
        assertThat(OvnSouthboundSchema.NAME).isEqualTo("OVN_Southbound");
        assertThat(OpenVSwitchSchema.NAME).isEqualTo("Open_vSwitch");
        assertThat(OvnNorthboundSchema.ROOT_TABLES)
                .contains("Logical_Switch", "Port_Group", "Address_Set")
                .doesNotContain("ACL", "Logical_Switch_Port", "Logical_Router_Static_Route");
    }

    @Test
    void enumColumnsCarryTheirWireStrings() {
        assertThat(Acl.Action.fromWire("allow-related")).isEqualTo(Acl.Action.ALLOW_RELATED);
        assertThat(Acl.Action.PASS.wire()).isEqualTo("pass");
        assertThat(Acl.Direction.TO_LPORT.wire()).isEqualTo("to-lport");
        assertThat(Acl.Severity.values())
                .extracting(Acl.Severity::wire)
                .containsExactlyInAnyOrder("alert", "warning", "notice", "info", "debug");
        assertThatThrownBy(() -> Acl.Action.fromWire("permit"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("permit");
    }

    @Test
    void columnsAreTypedByTheirSchemaShape() {
        Uuid port = Uuid.random();
        Acl acl = Acl.newRow()
                .withName("ANP:deny-all:Ingress:0")
                .withPriority(26_000)
                .withAction(Acl.Action.DROP)
                .withDirection(Acl.Direction.TO_LPORT)
                .withMatch("outport == @a1")
                .withTier(1)
                .withSeverity(Acl.Severity.ALERT)
                .withExternalIds(Map.of("k8s.ovn.org/id", "x"));
        assertThat(acl.name()).isEqualTo(Optional.of("ANP:deny-all:Ingress:0"));
        assertThat(acl.toColumns())
                .containsEntry(Acl.NAME, Set.of("ANP:deny-all:Ingress:0"))
                .containsEntry(Acl.PRIORITY, 26_000L)
                .containsEntry(Acl.ACTION, "drop")
                .containsEntry(Acl.SEVERITY, Set.of("alert"))
                .containsEntry(Acl.METER, Set.of())
                .containsEntry(Acl.EXTERNAL_IDS, Map.of("k8s.ovn.org/id", "x"));
        LogicalSwitch ls = LogicalSwitch.newRow().withName("node1").withPorts(Set.of(port));
        assertThat(ls.ports()).containsExactly(port);
        assertThat(ls.toColumns()).containsEntry(LogicalSwitch.PORTS, Set.of(port));
        assertThat(LogicalSwitchPort.TABLE_NAME).isEqualTo("Logical_Switch_Port");
        assertThat(LogicalSwitchPort.INDEXES).containsExactly(List.of("name"));
        assertThat(LogicalSwitchPort.IS_ROOT).isFalse();
        assertThat(Encap.INDEXES).containsExactly(List.of("ip", "type"));
    }

    @Test
    void unsetRequiredColumnsAreLeftOutAndAbsentColumnsReadAsDefaults() {
        Acl acl = Acl.fromRow(new Row(Uuid.random(), Map.of(Acl.PRIORITY, 5L)));
        assertThat(acl.priority()).isEqualTo(5);
        assertThat(acl.action()).isNull();
        assertThat(acl.name()).isEmpty();
        assertThat(acl.externalIds()).isEmpty();
        assertThat(acl.toColumns())
                .doesNotContainKeys(Acl.ACTION, Acl.DIRECTION)
                .containsEntry(Acl.MATCH, "");
        assertThat(Acl.newRow().uuid()).isNull();
    }
}
