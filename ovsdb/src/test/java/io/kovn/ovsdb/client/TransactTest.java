package io.kovn.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.ops.TransactionResult;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every RFC 7047 operation against a real ovsdb-server. */
@Tag("real")
class TransactTest {
    private static final String NB = "OVN_Northbound";
    private static OvnDatabases ovn;
    private static OvsdbClient client;

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(new OvnDatabases.Config(false, false, OvsdbServerProcess.Options.withTcp()));
        client = OvsdbClient.builder()
                .endpoint(ovn.nb().unixEndpoint())
                .expect(NB, "7.0.0")
                .connect();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        ovn.close();
    }

    @Test
    void listsDatabasesAndReadsTheSchemaOverUnixAndTcp() {
        assertThat(client.listDbs()).contains(NB);
        try (OvsdbClient tcp =
                OvsdbClient.builder().endpoint(ovn.nb().tcpEndpoint()).connect()) {
            assertThat(tcp.getSchema(NB).require("ACL").hasColumn("tier")).isTrue();
        }
    }

    @Test
    void insertsWithNamedUuidsAndResolvesThem() {
        var as = Ops.insert("Address_Set", Map.of("name", "as_named", "addresses", Set.of("10.0.0.1")))
                .named("as1");
        var acl = Ops.insert(
                        "ACL",
                        Map.of(
                                "priority",
                                1000L,
                                "direction",
                                "to-lport",
                                "match",
                                "ip4.src == $as_named",
                                "action",
                                "pass",
                                "tier",
                                1L))
                .named("acl1");
        var pg = Ops.insert("Port_Group", Map.of("name", "pg_named", "acls", Set.of(acl.ref())))
                .named("pg1");
        TransactionResult r = client.transact(NB, List.of(as, acl, pg));
        Uuid pgUuid = r.uuid("pg1").orElseThrow();
        assertThat(r.get(0)).isInstanceOf(OperationResult.Inserted.class);
        assertThat(r.inserted()).containsOnlyKeys("as1", "acl1", "pg1");
        Row pgRow = select("Port_Group", Condition.uuid(pgUuid)).getFirst();
        assertThat(pgRow.get("acls")).isEqualTo(Set.of(r.uuid("acl1").orElseThrow()));
        assertThat(ovn.nbctl(
                                "--bare",
                                "--columns=action",
                                "list",
                                "ACL",
                                r.uuid("acl1").orElseThrow().value())
                        .trim())
                .isEqualTo("pass");
    }

    @Test
    void selectsUpdatesMutatesAndDeletes() {
        client.transact(
                NB,
                List.of(Ops.insert(
                        "Address_Set",
                        Map.of(
                                "name",
                                "as_crud",
                                "addresses",
                                Set.of("10.1.0.1"),
                                "external_ids",
                                Map.of("k8s.ovn.org/id", "x:y")))));
        Row row = select("Address_Set", Condition.eq("name", "as_crud")).getFirst();
        assertThat(row.get("addresses")).isEqualTo(Set.of("10.1.0.1"));
        assertThat(row.stringMap("external_ids")).containsEntry("k8s.ovn.org/id", "x:y");

        TransactionResult upd = client.transact(
                NB,
                List.of(
                        Ops.update(
                                "Address_Set",
                                Map.of("external_ids", Map.of("k8s.ovn.org/id", "x:z")),
                                Condition.eq("name", "as_crud")),
                        Ops.mutate(
                                "Address_Set",
                                List.of(Condition.eq("name", "as_crud")),
                                Mutation.insert("addresses", Set.of("10.1.0.2", "10.1.0.3")),
                                Mutation.deleteOne("addresses", "10.1.0.1"))));
        assertThat(upd.count(0)).isEqualTo(1);
        assertThat(upd.count(1)).isEqualTo(1);
        row = select("Address_Set", Condition.externalId("k8s.ovn.org/id", "x:z"))
                .getFirst();
        assertThat(row.get("addresses")).isEqualTo(Set.of("10.1.0.2", "10.1.0.3"));

        TransactionResult del =
                client.transact(NB, List.of(Ops.delete("Address_Set", Condition.eq("name", "as_crud"))));
        assertThat(del.count(0)).isEqualTo(1);
        assertThat(select("Address_Set", Condition.eq("name", "as_crud"))).isEmpty();
    }

    @Test
    void waitCommitCommentAndAbortBehaveAsSpecified() {
        client.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_wait"))));
        TransactionResult ok = client.transact(
                NB,
                List.of(
                        Ops.waitEquals(
                                "Address_Set",
                                List.of(Condition.eq("name", "as_wait")),
                                List.of("name"),
                                List.of(Map.of("name", "as_wait")),
                                0L),
                        Ops.comment("kovn test"),
                        Ops.commit(false)));
        assertThat(ok.results()).allMatch(r -> r instanceof OperationResult.Done);

        assertThatThrownBy(() -> client.transact(
                        NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_aborted")), Ops.abort())))
                .isInstanceOfSatisfying(OperationFailedException.class, e -> {
                    assertThat(e.index()).isEqualTo(1);
                    assertThat(e.operation()).isInstanceOf(Operation.Abort.class);
                    assertThat(e.error()).isEqualTo("aborted");
                });
        assertThat(select("Address_Set", Condition.eq("name", "as_aborted"))).isEmpty();

        assertThatThrownBy(() -> client.transact(
                        NB,
                        List.of(Ops.waitNotEquals(
                                "Address_Set",
                                List.of(Condition.eq("name", "as_wait")),
                                List.of("name"),
                                List.of(Map.of("name", "as_wait")),
                                0L))))
                .isInstanceOfSatisfying(OperationFailedException.class, e -> {
                    assertThat(e.index()).isZero();
                    assertThat(e.error()).isEqualTo("timed out");
                });
    }

    @Test
    void assertOfALockNotHeldFails() {
        assertThatThrownBy(() -> client.transact(NB, List.of(Ops.assertLock("kovn_lock"))))
                .isInstanceOfSatisfying(OperationFailedException.class, e -> {
                    assertThat(e.index()).isZero();
                    assertThat(e.error()).isEqualTo("not owner");
                    assertThat(e).hasMessageContaining("operation 0 (assert)");
                });
    }

    @Test
    void serverErrorsNameTheFailingOperation() {
        assertThatThrownBy(() -> client.transact(
                        NB,
                        List.of(
                                Ops.comment("fine"),
                                Ops.insert(
                                        "ACL",
                                        Map.of(
                                                "priority",
                                                99999L,
                                                "direction",
                                                "to-lport",
                                                "match",
                                                "1",
                                                "action",
                                                "drop")))))
                .isInstanceOfSatisfying(OperationFailedException.class, e -> {
                    assertThat(e.index()).isEqualTo(1);
                    assertThat(e.operation().table()).isEqualTo("ACL");
                    assertThat(e.error()).isEqualTo("constraint violation");
                    assertThat(e).hasMessageContaining("operation 1 (insert ACL)");
                });
        // a duplicate of an indexed name fails at commit: the error follows the last operation
        client.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_dup"))));
        assertThatThrownBy(() -> client.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_dup")))))
                .isInstanceOfSatisfying(OperationFailedException.class, e -> {
                    assertThat(e.index()).isEqualTo(1);
                    assertThat(e.operation()).isNull();
                    assertThat(e.error()).isEqualTo("constraint violation");
                });
    }

    @Test
    void unknownDatabaseIsARequestFailure() {
        assertThatThrownBy(() -> client.getSchema("Nope"))
                .isInstanceOf(RequestFailedException.class)
                .hasMessageContaining("unknown database");
    }

    @Test
    void asyncTransactCompletesAndCountersCountOperations() throws Exception {
        var before = client.counters().snapshot();
        TransactionResult r = client.transactAsync(
                        NB,
                        List.of(
                                Ops.insert("Address_Set", Map.of("name", "as_async")),
                                Ops.select("Address_Set", Condition.eq("name", "as_async"))))
                .get();
        assertThat(((OperationResult.Selected) r.get(1)).rows()).hasSize(1);
        var delta = client.counters().snapshot().minus(before);
        assertThat(delta).isEqualTo(new TrafficCounters.Snapshot(1, 2, 1));
    }

    @Test
    void aTransactionListenerHearsOfEveryTransactionWithItsDurationAndOutcome() {
        List<String> heard = new CopyOnWriteArrayList<>();
        try (OvsdbClient listened = OvsdbClient.builder()
                .endpoint(ovn.nb().unixEndpoint())
                .transactionListener((database, duration, error) -> {
                    assertThat(duration).isPositive();
                    heard.add(database + " "
                            + (error == null ? "ok" : error.getClass().getSimpleName()));
                })
                .connect()) {
            listened.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_listened"))));
            assertThatThrownBy(() -> listened.transact(
                            NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_listened_2")), Ops.abort())))
                    .isInstanceOf(OperationFailedException.class);
            listened.transactAsync(NB, List.of(Ops.delete("Address_Set", Condition.eq("name", "as_listened"))))
                    .join();
        }
        assertThat(heard).containsExactly(NB + " ok", NB + " OperationFailedException", NB + " ok");
    }

    private static List<Row> select(String table, Condition... where) {
        return ((OperationResult.Selected)
                        client.transact(NB, List.of(Ops.select(table, where))).get(0))
                .rows();
    }
}
