package io.kovn.ovn.generated;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.OvnNorthboundSchema;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.DatabaseReconciler;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.PlanOutcome;
import io.kovn.ovsdb.diff.Ref;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Desired state written with the generated records, reconciled into a real NB database. */
@Tag("real")
class TypedReconcileTest {
    static final Owner OWNER = Owner.controller("default-network-controller").types("AdminNetworkPolicy", "Pod");
    static final List<String> TABLES = List.of(
            PortGroup.TABLE_NAME,
            Acl.TABLE_NAME,
            AddressSet.TABLE_NAME,
            LogicalSwitch.TABLE_NAME,
            LogicalSwitchPort.TABLE_NAME);

    static OvnDatabases ovn;
    static OvsdbClient client;
    static DatabaseReconciler nb;

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly());
        client = OvsdbClient.builder()
                .endpoint(ovn.nb().unixEndpoint())
                .expect(OvnNorthboundSchema.NAME, OvnNorthboundSchema.VERSION)
                .connect();
        nb = DatabaseReconciler.snapshotting(
                client,
                OvnNorthboundSchema.NAME,
                client.getSchema(OvnNorthboundSchema.NAME),
                () -> CurrentState.select(client, OvnNorthboundSchema.NAME, TABLES));
    }

    @AfterAll
    static void stop() {
        try (OvnDatabases o = ovn;
                OvsdbClient c = client) {
            // client first, then the servers and their folder
        }
    }

    static Map<String, String> ids(String type, String id) {
        return Map.of(Owner.OWNER_CONTROLLER, "default-network-controller", Owner.OWNER_TYPE, type, Owner.ID, id);
    }

    static Acl acl(String id, long priority, Acl.Action action) {
        return Acl.newRow()
                .withName(id)
                .withPriority(priority)
                .withTier(1)
                .withAction(action)
                .withDirection(Acl.Direction.TO_LPORT)
                .withMatch("outport == @pg1 && tcp.dst == " + priority)
                .withExternalIds(ids("AdminNetworkPolicy", id));
    }

    static List<Row> select(String table, Condition where) {
        return ((OperationResult.Selected) client.transact(OvnNorthboundSchema.NAME, List.of(Ops.select(table, where)))
                        .get(0))
                .rows();
    }

    @Test
    void typedDesiredRowsConvergeAndReadBackEqual() {
        Acl pass = acl("anp:0", 80, Acl.Action.PASS);
        Acl drop = acl("anp:1", 8080, Acl.Action.DROP);
        AddressSet peers = AddressSet.newRow()
                .withName("a1")
                .withAddresses(Set.of("10.244.0.5", "10.244.1.6"))
                .withExternalIds(ids("AdminNetworkPolicy", "anp:as"));
        DesiredState desired = DesiredState.builder()
                .add(Desired.of(PortGroup.newRow().withName("pg1").withExternalIds(ids("AdminNetworkPolicy", "anp:pg")))
                        .withRefs(PortGroup.ACLS, Ref.to(Acl.TABLE_NAME, "anp:0"), Ref.to(Acl.TABLE_NAME, "anp:1"))
                        .ignoring(PortGroup.PORTS))
                .add(pass)
                .add(drop)
                .add(peers)
                .build();

        assertThat(nb.reconcile(OWNER, desired)).isInstanceOf(PlanOutcome.Applied.class);
        assertThat(nb.reconcile(OWNER, desired)).isInstanceOf(PlanOutcome.Noop.class);

        Acl stored = Acl.fromRow(
                select(Acl.TABLE_NAME, Condition.eq(Acl.PRIORITY, 80L)).getFirst());
        assertThat(stored.withUuid(null)).isEqualTo(pass);
        assertThat(AddressSet.fromRow(select(AddressSet.TABLE_NAME, Condition.eq(AddressSet.NAME, "a1"))
                                .getFirst())
                        .addresses())
                .containsExactlyInAnyOrder("10.244.0.5", "10.244.1.6");
        PortGroup pg = PortGroup.fromRow(select(PortGroup.TABLE_NAME, Condition.eq(PortGroup.NAME, "pg1"))
                .getFirst());
        assertThat(pg.acls()).hasSize(2);
        assertThat(ovn.nbctl("acl-list", "pg1")).contains("pass", "drop", "tcp.dst == 8080");
    }

    @Test
    void aPodPortIsAttachedToAForeignSwitchAndDetachedWhenNoLongerDesired() {
        ovn.nbctl("ls-add", "node1");
        Uuid ls = LogicalSwitch.fromRow(select(LogicalSwitch.TABLE_NAME, Condition.eq(LogicalSwitch.NAME, "node1"))
                        .getFirst())
                .uuid();
        LogicalSwitchPort port = LogicalSwitchPort.newRow()
                .withName("ns_pod1")
                .withAddresses(Set.of("0a:58:0a:f4:01:03 10.244.1.3"))
                .withExternalIds(ids("Pod", "ns/pod1"));
        DesiredState desired = DesiredState.builder()
                .add(Desired.of(port)
                        .ignoring(LogicalSwitchPort.UP, LogicalSwitchPort.DYNAMIC_ADDRESSES)
                        .attachTo(LogicalSwitch.TABLE_NAME, ls, LogicalSwitch.PORTS))
                .build();

        assertThat(nb.reconcile(OWNER, desired)).isInstanceOf(PlanOutcome.Applied.class);
        assertThat(ovn.nbctl("lsp-list", "node1")).contains("ns_pod1");
        assertThat(nb.plan(OWNER, desired).isEmpty()).isTrue();

        Plan removal = nb.plan(
                OWNER,
                DesiredState.builder().table(LogicalSwitchPort.TABLE_NAME).build());
        assertThat(removal.counts()).isEqualTo(new Plan.Counts(0, 0, 1, 0));
        nb.apply(removal);
        assertThat(ovn.nbctl("lsp-list", "node1")).doesNotContain("ns_pod1");
        assertThat(ovn.nbctl("ls-list")).contains("node1");
    }
}
