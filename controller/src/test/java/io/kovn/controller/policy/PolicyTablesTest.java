package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kovn.controller.OvsdbDatabase;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The policy controller's view of the NB against a real NB server. */
@Tag("real")
class PolicyTablesTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static OvnDatabases ovn;

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly());
    }

    @AfterAll
    static void stop() {
        ovn.close();
    }

    @Test
    void switchPortsAreTheSameMapUntilAPortComesGoesOrIsMadeAgain() {
        ovn.nbctl("ls-add", "sw0", "--", "lsp-add", "sw0", "ns1_a", "--", "lsp-add", "sw0", "ns1_b");
        try (OvsdbDatabase db = OvsdbDatabase.connect(
                        ovn.nb().unixEndpoint(), NorthboundRows.DATABASE, PolicyController.NB_MONITORS, WAIT);
                PolicyTables nb = new PolicyTables(db)) {
            Map<String, Uuid> first = nb.switchPorts();
            assertThat(first).containsOnlyKeys("ns1_a", "ns1_b");
            assertThat(nb.switchPorts()).isSameAs(first);
            assertThatThrownBy(() -> first.remove("ns1_a")).isInstanceOf(UnsupportedOperationException.class);

            // a change elsewhere in what the connection monitors keeps the map
            ovn.nbctl("create", "Address_Set", "name=unrelated");
            await().atMost(WAIT)
                    .until(() ->
                            !nb.cache().table("Address_Set").byName("unrelated").isEmpty());
            assertThat(nb.switchPorts()).isSameAs(first);

            ovn.nbctl("lsp-add", "sw0", "ns1_c");
            await().atMost(WAIT).until(() -> nb.switchPorts().containsKey("ns1_c"));
            Map<String, Uuid> second = nb.switchPorts();
            assertThat(second).isNotSameAs(first).containsOnlyKeys("ns1_a", "ns1_b", "ns1_c");

            // made again under its name: a new uuid, so port groups holding it are written again
            Uuid old = second.get("ns1_a");
            ovn.nbctl("lsp-del", "ns1_a", "--", "lsp-add", "sw0", "ns1_a");
            await().atMost(WAIT).until(() -> !old.equals(nb.switchPorts().get("ns1_a")));
            assertThat(nb.switchPorts()).containsOnlyKeys("ns1_a", "ns1_b", "ns1_c");

            ovn.nbctl("lsp-del", "ns1_b");
            await().atMost(WAIT).until(() -> !nb.switchPorts().containsKey("ns1_b"));
            assertThat(nb.switchPorts()).containsOnlyKeys("ns1_a", "ns1_c");
        }
    }
}
