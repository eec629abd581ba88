package io.kovn.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.testing.ServerDump;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The server is killed and restarted under a live cache: the cache must end equal to the server. */
@Tag("real")
class ReconnectTest {
    private static final String NB = "OVN_Northbound";
    private OvnDatabases ovn;
    private OvsdbClient client;
    private OvsdbClient writer;

    @BeforeEach
    void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly());
        client = OvsdbClient.builder()
                .endpoint(ovn.nb().unixEndpoint())
                .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                .timeout(Duration.ofSeconds(5))
                .connect();
        writer = OvsdbClient.builder()
                .endpoint(ovn.nb().unixEndpoint())
                .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                .timeout(Duration.ofSeconds(2))
                .connect();
    }

    @AfterEach
    void stop() {
        writer.close();
        client.close();
        ovn.close();
    }

    @Test
    void cacheEqualsTheServerAfterAKillMidStreamAndChangesMadeWhileDown() throws Exception {
        DatabaseSchema schema = client.getSchema(NB);
        try (MonitorCache cache = MonitorCache.start(client, NB, List.of(TableMonitor.all("Address_Set")))) {
            List<CacheUpdate> updates = new CopyOnWriteArrayList<>();
            cache.addListener(updates::add);
            AtomicBoolean run = new AtomicBoolean(true);
            AtomicInteger written = new AtomicInteger();
            Thread load = Thread.ofVirtual().start(() -> {
                for (int i = 0; run.get(); i++) {
                    try {
                        writer.transact(
                                NB,
                                List.of(Ops.insert(
                                        "Address_Set",
                                        Map.of(
                                                "name",
                                                "as" + i,
                                                "addresses",
                                                Set.of("10.0." + (i / 250) + "." + (i % 250))))));
                        written.incrementAndGet();
                    } catch (RuntimeException e) {
                        // the server is down: keep trying, the client reconnects
                    }
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> written.get() > 50);
            ovn.nb().kill();

            // While the server is down, the database changes behind the client's back: a row
            // the cache holds is deleted and a new one appears (no ghost, no lost row allowed).
            Row ghost = cache.table("Address_Set").rows().getFirst();
            Tools.run(List.of(
                    ovn.runtime().bin("ovsdb-tool").toString(),
                    "transact",
                    ovn.nb().dbFile().toString(),
                    "[\"OVN_Northbound\",{\"op\":\"delete\",\"table\":\"Address_Set\",\"where\":[[\"_uuid\",\"==\",[\"uuid\",\""
                            + ghost.uuid()
                            + "\"]]]},{\"op\":\"insert\",\"table\":\"Address_Set\",\"row\":{\"name\":\"offline\"}}]"));
            int before = written.get();
            ovn.nb().restart();
            await().atMost(Duration.ofSeconds(10)).until(() -> written.get() > before + 50);
            run.set(false);
            load.join();

            Set<Row> server = ServerDump.rows(ovn, ovn.nb(), schema, "Address_Set");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> new HashSet<>(cache.table("Address_Set").rows()).equals(server));
            assertThat(cache.table("Address_Set").get(ghost.uuid())).isEmpty();
            assertThat(cache.table("Address_Set").byName("offline")).hasSize(1);
            assertThat(updates).anySatisfy(u -> {
                assertThat(u.resync()).isTrue();
                assertThat(u.changes())
                        .anySatisfy(c -> assertThat(c).isEqualTo(new RowChange.Deleted("Address_Set", ghost)));
            });
            assertThat(client.isConnected()).isTrue();
            assertThat(cache.resyncCount()).isEqualTo(1); // a standalone server keeps no history: no resume
            assertThat(cache.activeMethod()).contains(MonitorMethod.COND_SINCE);
        }
    }

    @Test
    void requestsFailWhileDownAndSucceedAfterTheServerReturns() {
        ovn.nb().kill();
        await().atMost(Duration.ofSeconds(5)).until(() -> !writer.isConnected());
        ovn.nb().restart();
        await().atMost(Duration.ofSeconds(10)).until(writer::isConnected);
        assertThat(writer.transact(NB, List.of(Ops.select("Address_Set", Condition.eq("name", "none"))))
                        .results())
                .hasSize(1);
    }
}
