package io.kovn.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.testing.ServerDump;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** With a server that keeps transaction history (clustered), a reconnect resumes instead of resyncing. */
@Tag("real")
class ResumeTest {
    private static final String NB = "OVN_Northbound";

    @Test
    void reconnectResumesFromTheLastTransactionIdAndReceivesOnlyWhatChanged() {
        try (OvnDatabases ovn = OvnDatabases.start(
                        new OvnDatabases.Config(false, false, OvsdbServerProcess.Options.clusteredUnix()));
                OvsdbClient client = OvsdbClient.builder()
                        .endpoint(ovn.nb().unixEndpoint())
                        .backoff(Duration.ofSeconds(2), Duration.ofSeconds(2))
                        .connect();
                MonitorCache cache = MonitorCache.start(client, NB, List.of(TableMonitor.all("Address_Set")))) {
            client.transact(NB, List.of(Ops.insert("Address_Set", Map.of("name", "before"))));
            String txn = cache.lastTxnId();
            assertThat(txn).isNotEqualTo("00000000-0000-0000-0000-000000000000");
            List<CacheUpdate> updates = new CopyOnWriteArrayList<>();
            cache.addListener(updates::add);

            // the server drops every connection; the change below lands while the client is away
            Tools.run(List.of(
                    ovn.runtime().bin("ovs-appctl").toString(),
                    "-t",
                    ovn.nb().controlSocket().toString(),
                    "ovsdb-server/reconnect"));
            ovn.nbctl("create", "Address_Set", "name=while_away");
            assertThat(client.isConnected()).as("still away (2 s backoff)").isFalse();

            await().atMost(Duration.ofSeconds(15))
                    .until(() ->
                            !cache.table("Address_Set").byName("while_away").isEmpty());
            assertThat(cache.resumeCount()).isEqualTo(1);
            assertThat(cache.resyncCount()).isZero();
            assertThat(updates).noneMatch(CacheUpdate::resync);
            assertThat(updates)
                    .flatMap(CacheUpdate::changes)
                    .singleElement()
                    .isInstanceOfSatisfying(
                            RowChange.Inserted.class,
                            i -> assertThat(i.row().get("name")).isEqualTo("while_away"));
            assertThat(cache.lastTxnId()).isNotEqualTo(txn);
            assertThat(cache.table("Address_Set").byName("before")).hasSize(1);
            assertThat(new HashSet<>(cache.table("Address_Set").rows()))
                    .isEqualTo(ServerDump.rows(ovn, ovn.nb(), client.getSchema(NB), "Address_Set"));
        }
    }
}
