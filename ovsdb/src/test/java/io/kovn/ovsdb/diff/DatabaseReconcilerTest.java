package io.kovn.ovsdb.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The diff applied to a real ovsdb-server (OVN 25.03 NB). Each test owns rows by its own name. */
@Tag("real")
class DatabaseReconcilerTest {
    static final String NB = "OVN_Northbound";
    static final List<String> TABLES = List.of("Port_Group", "ACL", "Address_Set");

    static OvnDatabases ovn;
    static OvsdbClient client;
    static DatabaseSchema schema;
    static DatabaseReconciler reconciler;

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly());
        client = OvsdbClient.builder().endpoint(ovn.nb().unixEndpoint()).connect();
        schema = client.getSchema(NB);
        reconciler = DatabaseReconciler.snapshotting(client, NB, schema, () -> CurrentState.select(client, NB, TABLES));
    }

    @AfterAll
    static void stop() {
        try (OvnDatabases o = ovn;
                OvsdbClient c = client) {
            // closed in reverse order: client, then servers and their folder
        }
    }

    private static Owner owner(TestInfo test) {
        return Owner.controller("default-network-controller")
                .types("AdminNetworkPolicy")
                .with(Owner.NAME, test.getTestMethod().orElseThrow().getName());
    }

    private static Map<String, String> ids(Owner owner, String id) {
        return Map.of(
                Owner.OWNER_CONTROLLER,
                "default-network-controller",
                Owner.OWNER_TYPE,
                "AdminNetworkPolicy",
                Owner.NAME,
                owner.externalIds().get(Owner.NAME).iterator().next(),
                Owner.ID,
                id);
    }

    private static DesiredState policy(Owner owner, String prefix, Set<String> addresses, int acls) {
        DesiredState.Builder b =
                DesiredState.builder().table("Port_Group").table("ACL").table("Address_Set");
        Ref[] refs = new Ref[acls];
        for (int i = 0; i < acls; i++) {
            String id = prefix + ":acl:" + i;
            refs[i] = Ref.to("ACL", id);
            b.add(Desired.of(
                    "ACL",
                    Map.of(
                            "priority",
                            1000L + i,
                            "direction",
                            "to-lport",
                            "tier",
                            1L,
                            "match",
                            "outport == @" + prefix + "pg && ip4.src == $" + prefix + "as",
                            "action",
                            i % 2 == 0 ? "pass" : "drop",
                            "external_ids",
                            ids(owner, id))));
        }
        b.add(Desired.of("Port_Group", Map.of("name", prefix + "pg", "external_ids", ids(owner, prefix + ":pg")))
                .withRefs("acls", refs));
        b.add(Desired.of(
                "Address_Set",
                Map.of("name", prefix + "as", "addresses", addresses, "external_ids", ids(owner, prefix + ":as"))));
        return b.build();
    }

    private static List<Row> rows(String table, String column, Object value) {
        var r = client.transact(NB, List.of(Ops.select(table, Condition.eq(column, value))));
        return ((OperationResult.Selected) r.get(0)).rows();
    }

    @Test
    void applyingTheSameDesiredRowsTwiceChangesNothingTheSecondTime(TestInfo test) {
        Owner owner = owner(test);
        DesiredState desired = policy(owner, "idem", Set.of("10.1.0.1", "10.1.0.2"), 4);

        PlanOutcome first = reconciler.reconcile(owner, desired);
        PlanOutcome second = reconciler.reconcile(owner, desired);

        assertThat(first)
                .isInstanceOfSatisfying(
                        PlanOutcome.Applied.class, a -> assertThat(a.counts()).isEqualTo(new Plan.Counts(6, 0, 0, 0)));
        assertThat(second).isInstanceOf(PlanOutcome.Noop.class);
        assertThat(reconciler.plan(owner, desired).operations()).isEmpty();
        Row pg = rows("Port_Group", "name", "idempg").getFirst();
        assertThat((Set<?>) pg.get("acls")).hasSize(4);
        assertThat(ovn.nbctl("--bare", "--columns=action", "find", "ACL", "priority=1000"))
                .contains("pass");
    }

    @Test
    void oneAddressChangeInALargeSetIsOneMutate(TestInfo test) {
        Owner owner = owner(test);
        Set<String> addresses = IntStream.range(0, 10_000)
                .mapToObj(i -> "10.2." + (i / 250) + "." + (i % 250))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        reconciler.reconcile(owner, policy(owner, "one", addresses, 1));
        Set<String> changed = new LinkedHashSet<>(addresses);
        changed.remove("10.2.0.7");
        changed.add("10.3.0.7");
        DesiredState desired = policy(owner, "one", changed, 1);

        Plan plan = reconciler.plan(owner, desired);
        PlanOutcome applied = reconciler.apply(plan);

        assertThat(plan.operations()).singleElement().isInstanceOf(Operation.Mutate.class);
        assertThat(applied).isInstanceOf(PlanOutcome.Applied.class);
        assertThat(rows("Address_Set", "name", "oneas").getFirst().get("addresses"))
                .isEqualTo(changed);
        assertThat(reconciler.reconcile(owner, desired)).isInstanceOf(PlanOutcome.Noop.class);
    }

    @Test
    void overTheMonitorCacheASecondReconcileRightAfterTheFirstIsANoop(TestInfo test) {
        Owner owner = owner(test);
        try (MonitorCache cache = MonitorCache.start(
                client, NB, TABLES.stream().map(TableMonitor::all).toList())) {
            cache.synced().join();
            DatabaseReconciler overCache = new DatabaseReconciler(client, NB, schema, CurrentState.of(cache));
            for (int round = 0; round < 10; round++) {
                DesiredState desired = policy(owner, "cache", Set.of("10.5.0." + round, "10.5.1.1"), 1 + round % 3);
                assertThat(overCache.reconcile(owner, desired))
                        .as("round %d", round)
                        .isInstanceOf(PlanOutcome.Applied.class);
                assertThat(overCache.reconcile(owner, desired))
                        .as("round %d again", round)
                        .isInstanceOf(PlanOutcome.Noop.class);
            }
        }
    }

    @Test
    void theMonitorCacheAnswersKeyedLookUpsOfOneKey(TestInfo test) {
        Owner owner = owner(test);
        reconciler.reconcile(owner, policy(owner, "keyed", Set.of("10.6.0.1"), 2));
        try (MonitorCache cache = MonitorCache.start(
                client, NB, TABLES.stream().map(TableMonitor::all).toList())) {
            cache.synced().join();
            CurrentState state = CurrentState.of(cache);
            assertThat(state.rows("ACL", RowKey.externalId(), "keyed:acl:1").orElseThrow())
                    .singleElement()
                    .satisfies(r -> assertThat(r.get("priority")).isEqualTo(1001L));
            assertThat(state.rows("ACL", RowKey.externalId(), "keyed:acl:9").orElseThrow())
                    .isEmpty();
            // other key functions fall back to a scan; unmonitored tables stay unknown
            assertThat(state.rows("Address_Set", RowKey.column("name"), "keyedas")
                            .orElseThrow())
                    .hasSize(1);
            assertThat(state.rows("Meter", RowKey.externalId(), "keyed:acl:1")).isEmpty();
        }
    }

    @Test
    void rowsLeftByACrashAreRemovedAndForeignRowsAreKept(TestInfo test) {
        Owner owner = owner(test);
        reconciler.reconcile(owner, policy(owner, "crash", Set.of("10.4.0.1"), 3));
        // A previous run (now gone) also left an address set, and another controller has one.
        client.transact(
                NB,
                List.of(
                        Ops.insert(
                                "Address_Set", Map.of("name", "crashleft", "external_ids", ids(owner, "crash:old-as"))),
                        Ops.insert(
                                "Address_Set",
                                Map.of(
                                        "name",
                                        "foreign",
                                        "external_ids",
                                        Map.of(Owner.OWNER_CONTROLLER, "other", Owner.ID, "crash:as")))));

        // The policy shrank to one ACL: two ACLs and the old address set are stale.
        PlanOutcome result = reconciler.reconcile(owner, policy(owner, "crash", Set.of("10.4.0.1"), 1));

        assertThat(result)
                .isInstanceOfSatisfying(
                        PlanOutcome.Applied.class, a -> assertThat(a.counts()).isEqualTo(new Plan.Counts(0, 0, 1, 1)));
        assertThat(rows("Address_Set", "name", "crashleft")).isEmpty();
        assertThat(rows("Address_Set", "name", "foreign")).hasSize(1);
        assertThat(rows("Port_Group", "name", "crashpg").getFirst().get("acls"))
                .asInstanceOf(InstanceOfAssertFactories.COLLECTION)
                .hasSize(1);
        // ovsdb-server garbage-collected the unreferenced non-root ACLs.
        assertThat(ovn.nbctl(
                                "--bare",
                                "--columns=_uuid",
                                "find",
                                "ACL",
                                "external_ids:k8s.ovn.org/name="
                                        + test.getTestMethod().orElseThrow().getName())
                        .lines()
                        .filter(l -> !l.isBlank()))
                .hasSize(1);
        assertThat(reconciler.reconcile(owner, policy(owner, "crash", Set.of("10.4.0.1"), 1)))
                .isInstanceOf(PlanOutcome.Noop.class);
    }

    /** A port group whose ACLs are exactly those of {@code ids} (no address set). */
    private static DesiredState portGroupWithAcls(Owner owner, String name, List<String> ids) {
        DesiredState.Builder b = DesiredState.builder().table("Port_Group").table("ACL");
        Ref[] refs = new Ref[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            refs[i] = Ref.to("ACL", ids.get(i));
            b.add(Desired.of(
                    "ACL",
                    Map.of(
                            "priority",
                            2000L + i,
                            "direction",
                            "to-lport",
                            "match",
                            "outport == @" + name,
                            "action",
                            "drop",
                            "external_ids",
                            ids(owner, ids.get(i)))));
        }
        b.add(Desired.of("Port_Group", Map.of("name", name, "external_ids", ids(owner, name)))
                .withRefs("acls", refs));
        return b.build();
    }

    @Test
    void aReferenceAnotherClientAddedAfterThePlanWasMadeSurvivesTheApply(TestInfo test) {
        Owner owner = owner(test);
        reconciler.reconcile(owner, portGroupWithAcls(owner, "racepg", List.of("race:a", "race:b")));
        // Every ACL of the group changes: a rewrite of acls would carry fewer elements than the mutation.
        Plan plan = reconciler.plan(owner, portGroupWithAcls(owner, "racepg", List.of("race:c", "race:d")));
        // Between the plan and its transaction, another client attaches its own ACL to the same group.
        client.transact(
                NB,
                List.of(
                        new Operation.Insert(
                                "ACL",
                                Map.of(
                                        "priority", 3000L,
                                        "direction", "to-lport",
                                        "match", "outport == @racepg",
                                        "action", "allow",
                                        "external_ids", Map.of(Owner.OWNER_CONTROLLER, "other")),
                                "foreign"),
                        Ops.mutate(
                                "Port_Group",
                                List.of(Condition.eq("name", "racepg")),
                                Mutation.insert("acls", Set.of(new NamedUuid("foreign"))))));

        assertThat(reconciler.apply(plan)).isInstanceOf(PlanOutcome.Applied.class);

        List<Row> foreign = rows("ACL", "priority", 3000L);
        assertThat(foreign).hasSize(1);
        assertThat(rows("Port_Group", "name", "racepg").getFirst().get("acls"))
                .asInstanceOf(InstanceOfAssertFactories.COLLECTION)
                .hasSize(3)
                .contains(foreign.getFirst().uuid());
    }
}
