package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.Meter;
import io.kovn.ovn.nb.MeterBand;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Diff;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.policy.StatefulPods;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.AclDirection;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyMetrics;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PriorityAssignment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The translation's rows as diff input (pure), and the exact operations the diff makes of them against a fresh and a
 * converged database.
 */
class NorthboundRowsTest {
    static final DatabaseSchema NB =
            DatabaseSchema.read(Path.of(System.getProperty("kovn.schemas"), "ovn-nb.ovsschema"));
    static final String CONTROLLER = "default-network-controller";
    static final Uuid WEB = Uuid.of("11111111-1111-1111-1111-111111111111");
    static final Uuid DB = Uuid.of("22222222-2222-2222-2222-222222222222");

    static Map<String, String> ids(String type, String name, String id) {
        return Map.of(
                "k8s.ovn.org/owner-controller",
                CONTROLLER,
                "k8s.ovn.org/owner-type",
                type,
                "k8s.ovn.org/name",
                name,
                "k8s.ovn.org/id",
                CONTROLLER + ":" + type + ":" + id);
    }

    /** One ANP "a": a port group with web, db and a pod whose port does not exist yet; one rule. */
    static DesiredPolicyState anp(Set<String> peers) {
        var pg = new DesiredPortGroup(
                "a1",
                ids("AdminNetworkPolicy", "a", "a"),
                new TreeSet<>(Set.of("ns_web", "ns_db", "ns_late")),
                new TreeSet<>(Set.of(CONTROLLER + ":AdminNetworkPolicy:a:Egress:0:None")));
        var as = new DesiredAddressSet("a2", ids("AdminNetworkPolicy", "a", "a:Egress:0:v4"), new TreeSet<>(peers));
        var acl = new DesiredAcl(
                CONTROLLER + ":AdminNetworkPolicy:a:Egress:0:None",
                "a1",
                "ANP:a:Egress:0",
                ids("AdminNetworkPolicy", "a", "a:Egress:0:None"),
                26000,
                AclDirection.FROM_LPORT,
                "inport == @a1 && ((ip4.dst == $a2))",
                AclAction.DROP,
                1,
                true,
                Optional.of("alert"),
                "acl-logging",
                Map.of("apply-after-lb", "true"));
        return new DesiredPolicyState(
                new TreeMap<>(Map.of("a1", pg)),
                new TreeMap<>(Map.of("a2", as)),
                new TreeMap<>(Map.of(acl.id(), acl)),
                List.of(),
                PriorityAssignment.EMPTY,
                new PolicyMetrics(1, 0, Map.of(), Map.of(), Map.of(), Map.of()));
    }

    static final Map<String, Uuid> PORTS =
            Map.of("ns_web", WEB, "ns_db", DB, "stor-node", Uuid.of("33333333-3333-3333-3333-333333333333"));

    @Test
    void portGroupMembersAreTheExistingSwitchPortsOfItsPods() {
        DesiredState rows = NorthboundRows.of(anp(Set.of("10.0.0.1")), PORTS);
        var pg = rows.tables()
                .get(PortGroup.TABLE_NAME)
                .rows()
                .values()
                .iterator()
                .next();
        assertThat(pg.columns().get(PortGroup.PORTS)).isEqualTo(Set.of(WEB, DB));
        assertThat(rows.tables().keySet()).containsExactly(AddressSet.TABLE_NAME, Acl.TABLE_NAME, PortGroup.TABLE_NAME);
        var acl = rows.tables().get(Acl.TABLE_NAME).rows().values().iterator().next();
        assertThat(acl.columns())
                .containsEntry(Acl.ACTION, "drop")
                .containsEntry(Acl.DIRECTION, "from-lport")
                .containsEntry(Acl.TIER, 1L)
                .containsEntry(Acl.SEVERITY, Set.of("alert"))
                .containsEntry(Acl.METER, Set.of("acl-logging"))
                .containsEntry(Acl.NAME, Set.of("ANP:a:Egress:0"))
                .containsEntry(Acl.LOG, true);
    }

    @Test
    void aFreshDatabaseGetsOneInsertPerRowAndAConvergedOneNothing() {
        Map<String, List<Row>> empty = Map.of(
                AddressSet.TABLE_NAME,
                List.of(),
                Acl.TABLE_NAME,
                List.of(),
                PortGroup.TABLE_NAME,
                List.of(),
                LogicalSwitchPort.TABLE_NAME,
                List.of());
        Plan fresh = Diff.of(
                NB,
                NorthboundRows.owner(CONTROLLER),
                NorthboundRows.of(anp(Set.of("10.0.0.1")), PORTS),
                CurrentState.of(empty));
        assertThat(fresh.counts()).isEqualTo(new Plan.Counts(3, 0, 0, 0));

        Map<String, List<Row>> converged = applied(fresh);
        Plan again = Diff.of(
                NB,
                NorthboundRows.owner(CONTROLLER),
                NorthboundRows.of(anp(Set.of("10.0.0.1")), PORTS),
                CurrentState.of(converged));
        assertThat(again.isEmpty()).isTrue();

        // one more peer IP: one mutate of one address set, nothing else
        Plan peer = Diff.of(
                NB,
                NorthboundRows.owner(CONTROLLER),
                NorthboundRows.of(anp(Set.of("10.0.0.1", "10.0.0.2")), PORTS),
                CurrentState.of(converged));
        assertThat(peer.counts()).isEqualTo(new Plan.Counts(0, 0, 1, 0));
        assertThat(((Operation.Mutate) peer.operations().getFirst()).table()).isEqualTo(AddressSet.TABLE_NAME);

        // the late pod's port appears: one mutate of the port group
        Map<String, Uuid> more = new HashMap<>(PORTS);
        more.put("ns_late", Uuid.of("44444444-4444-4444-4444-444444444444"));
        Plan late = Diff.of(
                NB,
                NorthboundRows.owner(CONTROLLER),
                NorthboundRows.of(anp(Set.of("10.0.0.1")), more),
                CurrentState.of(converged));
        assertThat(late.counts()).isEqualTo(new Plan.Counts(0, 0, 1, 0));
        assertThat(((Operation.Mutate) late.operations().getFirst()).table()).isEqualTo(PortGroup.TABLE_NAME);
    }

    @Test
    void theClusterPortGroupIsOwnedLikePolicyRowsAndMutatedIncrementally() {
        Map<String, List<Row>> empty = Map.of(
                AddressSet.TABLE_NAME,
                List.of(),
                Acl.TABLE_NAME,
                List.of(),
                PortGroup.TABLE_NAME,
                List.of(),
                LogicalSwitchPort.TABLE_NAME,
                List.of());
        var stateful = StatefulPods.rows(CONTROLLER, new TreeSet<>(Set.of("ns_web", "ns_db", "ns_late")));
        Plan fresh = Diff.of(
                NB,
                NorthboundRows.owner(CONTROLLER),
                NorthboundRows.of(anp(Set.of("10.0.0.1")), stateful, PORTS),
                CurrentState.of(empty));
        // the ANP's 3 rows, the cluster port group and its 2 ACLs
        assertThat(fresh.counts()).isEqualTo(new Plan.Counts(6, 0, 0, 0));
        var clusterAcls = fresh.operations().stream()
                .map(Operation.Insert.class::cast)
                .filter(i -> i.table().equals(Acl.TABLE_NAME)
                        && i.row().get(Acl.PRIORITY).equals(0L))
                .toList();
        assertThat(clusterAcls).extracting(i -> i.row().get(Acl.ACTION)).containsOnly("allow-related");
        assertThat(clusterAcls).extracting(i -> i.row().get(Acl.TIER)).containsOnly(3L);

        Map<String, List<Row>> converged = applied(fresh);
        assertThat(Diff.of(
                                NB,
                                NorthboundRows.owner(CONTROLLER),
                                NorthboundRows.of(anp(Set.of("10.0.0.1")), stateful, PORTS),
                                CurrentState.of(converged))
                        .isEmpty())
                .isTrue();

        // the late pod's port appears: one mutate of each port group holding it
        Map<String, Uuid> more = new HashMap<>(PORTS);
        more.put("ns_late", Uuid.of("44444444-4444-4444-4444-444444444444"));
        Plan late = Diff.of(
                NB,
                NorthboundRows.owner(CONTROLLER),
                NorthboundRows.of(anp(Set.of("10.0.0.1")), stateful, more),
                CurrentState.of(converged));
        assertThat(late.counts()).isEqualTo(new Plan.Counts(0, 0, 2, 0));

        // without the stateful rows (no policy left), kovn's Cluster rows in these tables are removed
        Plan gone = Diff.of(
                NB,
                NorthboundRows.owner(CONTROLLER),
                NorthboundRows.of(anp(Set.of("10.0.0.1")), PORTS),
                CurrentState.of(converged));
        assertThat(gone.isEmpty()).isFalse();
        assertThat(gone.counts().inserts() + gone.counts().updates()).isZero();
    }

    @Test
    void rowsSplitPerPolicyObjectKeepEachPortGroupWithItsAcls() {
        DesiredState rows = NorthboundRows.of(anp(Set.of("10.0.0.1")), PORTS);
        Map<PolicyOwner, DesiredState> groups = NorthboundRows.byPolicy(rows, (table, id) -> Optional.empty());
        assertThat(groups.keySet()).containsExactly(new PolicyOwner("AdminNetworkPolicy", "a"));
        assertThat(groups.values().iterator().next().size()).isEqualTo(3);
        assertThat(new PolicyOwner("AdminNetworkPolicy", "a").ref()).contains(PolicyRef.anp("a"));
        assertThat(new PolicyOwner("NetpolNamespace", "ns").ref()).isEmpty();
    }

    @Test
    void theLoggingMeterIsAFairPacketRateMeterWithOneDropBand() {
        Map<String, List<Row>> empty = Map.of(Meter.TABLE_NAME, List.of(), MeterBand.TABLE_NAME, List.of());
        Plan plan = Diff.of(
                NB, NorthboundRows.meterOwner(CONTROLLER), NorthboundRows.meter(CONTROLLER), CurrentState.of(empty));
        assertThat(plan.counts()).isEqualTo(new Plan.Counts(2, 0, 0, 0));
        var meter = plan.operations().stream()
                .map(Operation.Insert.class::cast)
                .filter(i -> i.table().equals(Meter.TABLE_NAME))
                .findFirst()
                .orElseThrow();
        assertThat(meter.row())
                .containsEntry(Meter.NAME, "acl-logging")
                .containsEntry(Meter.UNIT, "pktps")
                .containsEntry(Meter.FAIR, Set.of(true));
    }

    /** The rows a plan's inserts create (uuids made up, references resolved). */
    static Map<String, List<Row>> applied(Plan plan) {
        Map<String, Uuid> named = new HashMap<>();
        int n = 0;
        for (Operation op : plan.operations()) {
            Operation.Insert i = (Operation.Insert) op;
            named.put(i.uuidName(), Uuid.of(String.format("aaaaaaaa-0000-0000-0000-%012d", n++)));
        }
        Map<String, List<Row>> out = new HashMap<>(Map.of(
                AddressSet.TABLE_NAME,
                new ArrayList<>(),
                Acl.TABLE_NAME,
                new ArrayList<>(),
                PortGroup.TABLE_NAME,
                new ArrayList<>(),
                LogicalSwitchPort.TABLE_NAME,
                new ArrayList<>()));
        for (Operation op : plan.operations()) {
            Operation.Insert i = (Operation.Insert) op;
            Map<String, Object> columns = new HashMap<>();
            i.row().forEach((k, v) -> columns.put(k, resolve(v, named)));
            out.get(i.table()).add(new Row(named.get(i.uuidName()), columns));
        }
        return out;
    }

    static Object resolve(Object v, Map<String, Uuid> named) {
        return switch (v) {
            case NamedUuid n -> named.get(n.name());
            case Set<?> s -> Set.copyOf(s.stream().map(e -> resolve(e, named)).toList());
            default -> v;
        };
    }
}
