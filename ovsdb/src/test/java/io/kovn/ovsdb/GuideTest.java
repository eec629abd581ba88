package io.kovn.ovsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OperationFailedException;
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
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.ops.TransactionResult;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The examples of docs/ovsdb.md, run against a real NB ovsdb-server: each block of the guide is the body of one step
 * here, so the guide cannot drift from what the library does.
 */
@Tag("real")
class GuideTest {

    @Test
    void theGuidesExamplesWork() throws Exception {
        try (OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly())) {
            String endpoint = ovn.nb().unixEndpoint();

            // --- Connecting
            OvsdbClient client = OvsdbClient.builder()
                    .endpoint(endpoint) // unix:PATH, tcp:HOST:PORT or ssl:HOST:PORT (+ .tls(...))
                    .timeout(Duration.ofSeconds(10)) // per request
                    .expect("OVN_Northbound", "7.0.0") // refuse an incompatible schema
                    .connect();

            try (client) {
                // --- One transaction
                Operation.Insert sw =
                        Ops.insert("Logical_Switch", Map.of("name", "sw0")).named("sw");
                Operation.Insert port = Ops.insert(
                                "Logical_Switch_Port",
                                Map.of("name", "sw0-p1", "addresses", Set.of("0a:58:0a:f4:00:05 10.244.0.5")))
                        .named("p1");
                TransactionResult result = client.transact(
                        "OVN_Northbound",
                        List.of(
                                sw,
                                port,
                                Ops.mutate(
                                        "Logical_Switch",
                                        List.of(Condition.eq("name", "sw0")),
                                        Mutation.insertOne("ports", port.ref()))));
                Uuid portUuid = result.uuid("p1").orElseThrow();

                // every operation's result, in order; a failed operation is an exception
                assertThat(result.get(0)).isInstanceOf(OperationResult.Inserted.class);
                assertThat(result.count(2)).isEqualTo(1);
                OperationFailedException failed = null;
                try {
                    client.transact(
                            "OVN_Northbound",
                            List.of(
                                    Ops.insert("Address_Set", Map.of("name", "dup")),
                                    Ops.insert("Address_Set", Map.of("name", "dup"))));
                } catch (OperationFailedException e) {
                    failed = e; // nothing was written
                }
                assertThat(failed).isNotNull();
                assertThat(failed.index())
                        .as("the commit, after the last operation")
                        .isEqualTo(2);
                assertThat(failed.error()).isEqualTo("constraint violation");
                assertThat(failed.details()).contains("identical values (dup) for index on column \"name\"");

                // --- A monitor cache
                try (MonitorCache nb = MonitorCache.start(
                        client,
                        "OVN_Northbound",
                        List.of(
                                TableMonitor.all("Logical_Switch"),
                                TableMonitor.where("Address_Set", Condition.externalId("owner", "guide"))))) {
                    nb.synced().get(30, TimeUnit.SECONDS);
                    List<RowChange> seen = new CopyOnWriteArrayList<>();
                    nb.addListener(
                            update -> seen.addAll(update.changes())); // on the connection's reader: keep it short

                    Row sw0 = nb.table("Logical_Switch").byName("sw0").getFirst();
                    assertThat(sw0.get("ports")).isEqualTo(Set.of(portUuid));

                    Uuid set = client.transact(
                                    "OVN_Northbound",
                                    List.of(Ops.insert(
                                                    "Address_Set",
                                                    Map.of(
                                                            "name",
                                                            "as0",
                                                            "addresses",
                                                            Set.of("10.0.0.1"),
                                                            "external_ids",
                                                            Map.of("owner", "guide")))
                                            .named("as0")))
                            .uuid("as0")
                            .orElseThrow();
                    client.transact(
                            "OVN_Northbound",
                            List.of(Ops.mutate(
                                    "Address_Set",
                                    set,
                                    Mutation.insertOne("addresses", "10.0.0.2"),
                                    Mutation.deleteOne("addresses", "10.0.0.1"))));
                    // the cache already holds a transaction's rows when transact returns (same client)
                    assertThat(nb.table("Address_Set").byName("as0").getFirst().get("addresses"))
                            .isEqualTo(Set.of("10.0.0.2"));
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> seen.stream().anyMatch(c -> c instanceof RowChange.Updated));
                    RowChange.Updated changed = (RowChange.Updated) seen.stream()
                            .filter(c -> c instanceof RowChange.Updated)
                            .findFirst()
                            .orElseThrow();
                    assertThat(changed.columnDiffs()).isEqualTo(Map.of("addresses", Set.of("10.0.0.1", "10.0.0.2")));
                }

                // --- Desired state, diffed and applied
                try (MonitorCache nb = MonitorCache.start(
                        client, "OVN_Northbound", List.of(TableMonitor.all("Port_Group"), TableMonitor.all("ACL")))) {
                    nb.synced().get(30, TimeUnit.SECONDS);
                    Owner owner = Owner.controller("my-controller").types("Guide");
                    Map<String, String> ids =
                            Map.of(Owner.OWNER_CONTROLLER, "my-controller", Owner.OWNER_TYPE, "Guide");
                    DesiredState desired = DesiredState.builder()
                            .table("Port_Group")
                            .table("ACL")
                            .add(Desired.of(
                                    "ACL",
                                    Map.of(
                                            "priority",
                                            1001L,
                                            "direction",
                                            "to-lport",
                                            "match",
                                            "outport == @pg0 && tcp.dst == 80",
                                            "action",
                                            "allow-related",
                                            "external_ids",
                                            with(ids, Owner.ID, "guide:acl:web"))))
                            .add(Desired.of(
                                            "Port_Group",
                                            Map.of(
                                                    "name",
                                                    "pg0",
                                                    "ports",
                                                    Set.of(portUuid),
                                                    "external_ids",
                                                    with(ids, Owner.ID, "guide:pg")))
                                    .withRefs("acls", Ref.to("ACL", "guide:acl:web")))
                            .build();
                    DatabaseReconciler reconciler = new DatabaseReconciler(
                            client, "OVN_Northbound", client.getSchema("OVN_Northbound"), CurrentState.of(nb));

                    Plan plan = reconciler.plan(owner, desired); // pure: what would be written
                    assertThat(plan.counts()).isEqualTo(new Plan.Counts(2, 0, 0, 0));
                    assertThat(reconciler.reconcile(owner, desired)).isInstanceOf(PlanOutcome.Applied.class);
                    assertThat(reconciler.reconcile(owner, desired)).isInstanceOf(PlanOutcome.Noop.class); // converged

                    // rows of this owner that are no longer desired are removed; others' rows are never touched
                    DesiredState none = DesiredState.builder()
                            .table("Port_Group")
                            .table("ACL")
                            .build();
                    assertThat(reconciler.reconcile(owner, none)).isInstanceOf(PlanOutcome.Applied.class);
                    assertThat(nb.table("Port_Group").byName("pg0")).isEmpty();
                    assertThat(nb.table("ACL").rows()).isEmpty(); // an ACL no port group refers to is garbage
                }
            }
            assertThatThrownBy(() -> client.listDbs()).as("a closed client").isInstanceOf(RuntimeException.class);
        }
    }

    private static Map<String, String> with(Map<String, String> ids, String key, String value) {
        Map<String, String> out = new HashMap<>(ids);
        out.put(key, value);
        return Map.copyOf(out);
    }
}
