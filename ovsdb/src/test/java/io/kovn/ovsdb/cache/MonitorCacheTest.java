package io.kovn.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.testing.ServerDump;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Tag("real")
class MonitorCacheTest {
    private static final String NB = "OVN_Northbound";
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static OvnDatabases ovn;
    private static OvsdbClient client;

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly());
        client = OvsdbClient.builder().endpoint(ovn.nb().unixEndpoint()).connect();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        ovn.close();
    }

    /**
     * With large-message decoding at a raised nice value, a bulk update and an initial monitor reply of more than a MiB
     * reach the cache through the connection's bulk thread, whole and in order with the small updates around them,
     * which stay on the reader thread.
     */
    @Test
    void largeUpdatesAndInitialRepliesReachTheCacheThroughTheBulkThread() {
        Set<String> big = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            big.add("10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255));
        }
        try (OvsdbClient yielding = OvsdbClient.builder()
                        .endpoint(ovn.nb().unixEndpoint())
                        .decodeLargeMessagesAtNice(5)
                        .connect();
                MonitorCache cache = MonitorCache.start(yielding, NB, List.of(TableMonitor.all("Address_Set")))) {
            cache.synced().join();
            List<String> threads = new CopyOnWriteArrayList<>();
            cache.addListener(u -> u.changes()
                    .forEach(c ->
                            threads.add(c.table() + " " + Thread.currentThread().getName())));
            client.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_small_before"))));
            client.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_big", "addresses", big))));
            client.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_small_after"))));
            await().atMost(WAIT).until(() -> threads.size() == 3);
            assertThat(threads).allSatisfy(t -> assertThat(t).startsWith("Address_Set ovsdb-"));
            assertThat(threads.get(0)).contains("ovsdb-reader-");
            assertThat(threads.get(1)).contains("ovsdb-bulk-");
            assertThat(threads.get(2)).contains("ovsdb-reader-");
            assertThat(cache.table("Address_Set").byName("as_big").getFirst().get("addresses"))
                    .isEqualTo(big);

            try (MonitorCache second = MonitorCache.start(yielding, NB, List.of(TableMonitor.all("Address_Set")))) {
                second.synced().join();
                assertThat(second.table("Address_Set")
                                .byName("as_big")
                                .getFirst()
                                .get("addresses"))
                        .isEqualTo(big);
            }
        } finally {
            for (String name : List.of("as_small_before", "as_big", "as_small_after")) {
                client.transact(NB, List.of(Ops.delete("Address_Set", Condition.eq("name", name))));
            }
        }
    }

    @Test
    void followsChangesMadeByOvnNbctlAndTellsListeners() {
        try (MonitorCache cache = MonitorCache.start(
                client,
                NB,
                List.of(
                        TableMonitor.all("Logical_Switch"),
                        TableMonitor.all("ACL"),
                        TableMonitor.all("Address_Set")))) {
            assertThat(cache.activeMethod()).contains(MonitorMethod.COND_SINCE);
            List<RowChange> seen = new CopyOnWriteArrayList<>();
            cache.addListener(u -> seen.addAll(u.changes()));

            ovn.nbctl(
                    "ls-add",
                    "sw_follow",
                    "--",
                    "set",
                    "Logical_Switch",
                    "sw_follow",
                    "external_ids:k8s.ovn.org/id=net:sw");
            await().atMost(WAIT)
                    .until(() ->
                            cache.table("Logical_Switch").byName("sw_follow").size() == 1);
            assertThat(cache.table("Logical_Switch").byExternalId("k8s.ovn.org/id", "net:sw"))
                    .hasSize(1);

            ovn.nbctl("create", "Address_Set", "name=as_follow", "addresses=\"10.0.0.1\",\"10.0.0.2\"");
            ovn.nbctl("add", "Address_Set", "as_follow", "addresses", "\"10.0.0.3\"");
            ovn.nbctl("remove", "Address_Set", "as_follow", "addresses", "\"10.0.0.1\"");
            await().atMost(WAIT)
                    .until(() -> cache.table("Address_Set").byName("as_follow").stream()
                            .anyMatch(r -> r.get("addresses").equals(Set.of("10.0.0.2", "10.0.0.3"))));

            ovn.nbctl("acl-add", "sw_follow", "to-lport", "1001", "ip4", "drop");
            await().atMost(WAIT).until(() -> cache.table("ACL").size() == 1);
            String acl = cache.table("ACL").rows().getFirst().uuid().value();
            ovn.nbctl("set", "ACL", acl, "name=first", "external_ids:a=1");
            ovn.nbctl("set", "ACL", acl, "name=second", "external_ids:a=2");
            await().atMost(WAIT)
                    .until(() ->
                            cache.table("ACL").rows().getFirst().get("name").equals(Set.of("second")));
            assertThat(cache.table("ACL").rows().getFirst().stringMap("external_ids"))
                    .isEqualTo(Map.of("a", "2"));
            assertThat(cache.table("ACL").byName("second")).hasSize(1);
            assertThat(cache.table("ACL").byName("first")).isEmpty();
            ovn.nbctl("clear", "ACL", acl, "name");
            await().atMost(WAIT)
                    .until(() ->
                            cache.table("ACL").rows().getFirst().get("name").equals(Set.of()));

            ovn.nbctl("ls-del", "sw_follow");
            ovn.nbctl("destroy", "Address_Set", "as_follow");
            await().atMost(WAIT)
                    .until(() -> cache.table("Logical_Switch")
                                    .byName("sw_follow")
                                    .isEmpty()
                            && cache.table("Address_Set").byName("as_follow").isEmpty()
                            && cache.table("ACL").size() == 0);

            assertThat(seen).anySatisfy(c -> assertThat(c).isInstanceOf(RowChange.Inserted.class));
            assertThat(seen).anySatisfy(c -> {
                assertThat(c).isInstanceOf(RowChange.Updated.class);
                RowChange.Updated u = (RowChange.Updated) c;
                if (u.table().equals("ACL")) {
                    assertThat(u.old().get("name")).isNotEqualTo(u.row().get("name"));
                }
            });
            assertThat(seen)
                    .filteredOn(c -> c instanceof RowChange.Deleted)
                    .extracting(RowChange::table)
                    .contains("Logical_Switch", "Address_Set", "ACL");
        }
    }

    @ParameterizedTest
    @EnumSource(MonitorMethod.class)
    void aMonitorOfSeveralClausesHoldsTheRowsOfEach(MonitorMethod method) {
        String t = "any-" + method.name().toLowerCase();
        // two owners' rows of one table, as ovsdb-server selects under monitor_cond (and the cache under monitor)
        try (MonitorCache cache = MonitorCache.start(
                client,
                NB,
                List.of(TableMonitor.where(
                        "Address_Set", Condition.externalId("c", t + "-1"), Condition.externalId("c", t + "-2"))),
                method)) {
            client.transact(
                    NB,
                    List.of(
                            Ops.insert(
                                    "Address_Set",
                                    Map.of("name", t + "-a", "external_ids", Map.of("c", t + "-1", "k", "x"))),
                            Ops.insert("Address_Set", Map.of("name", t + "-b", "external_ids", Map.of("c", t + "-2"))),
                            Ops.insert("Address_Set", Map.of("name", t + "-c", "external_ids", Map.of("c", "other")))));
            await().atMost(WAIT).until(() -> cache.table("Address_Set").size() == 2);
            assertThat(cache.table("Address_Set").rows())
                    .extracting(r -> r.get("name"))
                    .containsExactlyInAnyOrder(t + "-a", t + "-b");
            ovn.nbctl("set", "Address_Set", t + "-c", "external_ids:c=" + t + "-2");
            await().atMost(WAIT)
                    .until(() -> cache.table("Address_Set").byName(t + "-c").size() == 1);
            ovn.nbctl("set", "Address_Set", t + "-a", "external_ids:c=gone");
            await().atMost(WAIT)
                    .until(() -> cache.table("Address_Set").byName(t + "-a").isEmpty());
        }
    }

    @ParameterizedTest
    @EnumSource(MonitorMethod.class)
    void conditionalMonitorHoldsOnlyMatchingRows(MonitorMethod method) {
        String owner = "owner-" + method.name().toLowerCase();
        Condition mine = Condition.externalId("k8s.ovn.org/owner-type", owner);
        try (MonitorCache cache =
                MonitorCache.start(client, NB, List.of(TableMonitor.where("Address_Set", mine)), method)) {
            assertThat(cache.activeMethod()).contains(method);
            client.transact(
                    NB,
                    List.of(
                            Ops.insert(
                                    "Address_Set",
                                    Map.of(
                                            "name",
                                            owner + "-a",
                                            "external_ids",
                                            Map.of("k8s.ovn.org/owner-type", owner))),
                            Ops.insert(
                                    "Address_Set",
                                    Map.of(
                                            "name",
                                            owner + "-b",
                                            "external_ids",
                                            Map.of("k8s.ovn.org/owner-type", "other"))),
                            Ops.insert("Address_Set", Map.of("name", owner + "-c"))));
            await().atMost(WAIT)
                    .until(() -> cache.table("Address_Set").byName(owner + "-a").size() == 1);
            ovn.nbctl("set", "Address_Set", owner + "-c", "external_ids:k8s.ovn.org/owner-type=" + owner);
            await().atMost(WAIT).until(() -> cache.table("Address_Set").size() == 2);
            ovn.nbctl("set", "Address_Set", owner + "-a", "external_ids:k8s.ovn.org/owner-type=gone");
            await().atMost(WAIT).until(() -> cache.table("Address_Set").size() == 1);
            assertThat(cache.table("Address_Set").rows())
                    .extracting(r -> r.get("name"))
                    .containsExactly(owner + "-c");
            assertThat(cache.table("Address_Set").byName(owner + "-b")).isEmpty();
        }
    }

    @Test
    void cacheAlreadyHoldsItsOwnWritesWhenTransactReturns() {
        try (MonitorCache cache = MonitorCache.start(client, NB, List.of(TableMonitor.all("Address_Set")))) {
            // ovsdb-server sends a session's monitor updates before its transact reply, and the
            // client applies messages in order: the cache already holds what transact returned
            for (int i = 0; i < 20; i++) {
                var r = client.transact(
                        NB,
                        List.of(Ops.insert("Address_Set", Map.of("name", "as_own" + i))
                                .named("n")));
                assertThat(cache.table("Address_Set").get(r.uuid("n").orElseThrow()))
                        .isPresent();
            }
            client.transact(
                    NB, List.of(Ops.insert("Address_Set", Map.of("name", "as_own", "addresses", Set.of("1.1.1.1")))));
            Row row = cache.table("Address_Set").byName("as_own").getFirst();
            client.transact(
                    NB, List.of(Ops.mutate("Address_Set", row.uuid(), Mutation.insertOne("addresses", "1.1.1.2"))));
            assertThat(cache.table("Address_Set").get(row.uuid()).orElseThrow().get("addresses"))
                    .isEqualTo(Set.of("1.1.1.1", "1.1.1.2"));
            assertThat(new HashSet<>(cache.table("Address_Set").rows()))
                    .isEqualTo(ServerDump.rows(ovn, ovn.nb(), client.getSchema(NB), "Address_Set"));
        }
    }

    /**
     * A modify reports each changed column as the server's diff: a set's toggled elements, a map's changed entries, a
     * scalar's new value; a plain monitor, which sends whole rows, reports none.
     */
    @ParameterizedTest
    @EnumSource(MonitorMethod.class)
    void anUpdateCarriesTheServersColumnDiffs(MonitorMethod method) {
        String name = "diff-" + method.name().toLowerCase();
        try (MonitorCache cache = MonitorCache.start(
                client, NB, List.of(TableMonitor.where("Address_Set", Condition.externalId("test", name))), method)) {
            List<RowChange> seen = new CopyOnWriteArrayList<>();
            cache.addListener(u -> seen.addAll(u.changes()));
            Uuid row = client.transact(
                                            NB,
                                            List.of(Ops.insert(
                                                    "Address_Set",
                                                    Map.of(
                                                            "name",
                                                            name,
                                                            "addresses",
                                                            Set.of("10.0.0.1", "10.0.0.2"),
                                                            "external_ids",
                                                            Map.of("test", name, "a", "1")))))
                                    .results()
                                    .getFirst()
                            instanceof OperationResult.Inserted i
                    ? i.uuid()
                    : null;
            client.transact(
                    NB,
                    List.of(
                            Ops.mutate(
                                    "Address_Set",
                                    row,
                                    Mutation.insertOne("addresses", "10.0.0.3"),
                                    Mutation.deleteOne("addresses", "10.0.0.1")),
                            Ops.update(
                                    "Address_Set",
                                    row,
                                    Map.of("external_ids", Map.of("test", name, "a", "2", "b", "3")))));
            await().atMost(WAIT).until(() -> seen.stream().anyMatch(c -> c instanceof RowChange.Updated));

            RowChange.Updated u = (RowChange.Updated) seen.stream()
                    .filter(c -> c instanceof RowChange.Updated)
                    .findFirst()
                    .orElseThrow();
            assertThat(u.row().get("addresses")).isEqualTo(Set.of("10.0.0.2", "10.0.0.3"));
            if (method == MonitorMethod.PLAIN) {
                assertThat(u.columnDiffs()).isNull();
            } else {
                assertThat(u.columnDiffs()).containsOnlyKeys("addresses", "external_ids");
                assertThat(u.columnDiffs().get("addresses")).isEqualTo(Set.of("10.0.0.1", "10.0.0.3"));
                assertThat(u.columnDiffs().get("external_ids")).isEqualTo(Map.of("a", "2", "b", "3"));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MonitorMethod.class)
    void largeSetsFollowInsertsAndMutationsAsTheServerHoldsThem(MonitorMethod method) {
        String prefix = "big-" + method.name().toLowerCase();
        try (MonitorCache cache = MonitorCache.start(
                client, NB, List.of(TableMonitor.where("Address_Set", Condition.externalId("test", prefix))), method)) {
            // a bulk insert arrives as one update; sets of 64 addresses and more are kept as decoded
            List<Operation> ops = new ArrayList<>();
            for (int s = 0; s < 20; s++) {
                Set<String> addrs = new HashSet<>();
                for (int a = 0; a < 30 + 100 * s; a++) {
                    addrs.add("10." + s + "." + a / 256 + "." + a % 256);
                }
                ops.add(Ops.insert(
                        "Address_Set",
                        Map.of("name", prefix + s, "addresses", addrs, "external_ids", Map.of("test", prefix))));
            }
            client.transact(NB, ops);
            await().atMost(WAIT).until(() -> cache.table("Address_Set").size() == 20);
            Object decoded =
                    cache.table("Address_Set").byName(prefix + "19").getFirst().get("addresses");
            assertThat(decoded)
                    .isInstanceOf(AtomSet.class)
                    .asInstanceOf(InstanceOfAssertFactories.COLLECTION)
                    .hasSize(1930);
            // mutations: layered over the decoded set, then compacted once the changes grow
            for (int s = 0; s < 20; s += 3) {
                Row row = cache.table("Address_Set").byName(prefix + s).getFirst();
                for (int k = 0; k < 40; k++) {
                    client.transact(
                            NB,
                            List.of(Ops.mutate(
                                    "Address_Set",
                                    row.uuid(),
                                    Mutation.insertOne("addresses", "11.0." + s + "." + k),
                                    Mutation.deleteOne("addresses", "10." + s + ".0." + k))));
                }
            }
            Set<Row> server = new HashSet<>(ServerDump.rows(ovn, ovn.nb(), client.getSchema(NB), "Address_Set"));
            server.removeIf(r -> !prefix.equals(r.stringMap("external_ids").get("test")));
            await().atMost(WAIT)
                    .until(() -> new HashSet<>(cache.table("Address_Set").rows()).equals(server));
            // and a second cache, filled from the initial monitor reply, holds the same
            try (MonitorCache second = MonitorCache.start(
                    client,
                    NB,
                    List.of(TableMonitor.where("Address_Set", Condition.externalId("test", prefix))),
                    method)) {
                assertThat(new HashSet<>(second.table("Address_Set").rows())).isEqualTo(server);
            }
        }
    }
}
