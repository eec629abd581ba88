package io.kovn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Short forms of the fault programs (RELIABILITY.md, "Faults: controllers and OVN databases"): the zone and policy
 * controllers killed with SIGKILL 6 times under churn, and the NB/SB servers killed and restarted once, on a real
 * kube-apiserver and real ovsdb-servers. The full forms are {@code scripts/bench.sh ZoneKillFaults} and
 * {@code scripts/bench.sh DatabaseRestartFaults}.
 */
@Tag("real")
class FaultsTest {
    private static ApiServer api;

    @BeforeAll
    static void startApiServer() throws Exception {
        api = ApiServer.start();
    }

    @AfterAll
    static void stopApiServer() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    void aZoneKilledSixTimesUnderChurnConvergesEachTimeAndNeverLetsADeniedFlowThrough(@TempDir Path logs)
            throws Exception {
        api.reset();
        ZoneKillFaults.Report r = ZoneKillFaults.run(api, 6, 35, 1000, logs);
        ZoneKillFaults.print(r);
        assertThat(r.violations()).isEmpty();
        assertThat(r.convergeMs()).hasSize(6);
        assertThat(r.probeChecks()).isPositive();
    }

    @Test
    void databaseServersKilledUnderLoadLoseAndDoubleNothing(@TempDir Path logs) throws Exception {
        api.reset();
        DatabaseRestartFaults.Report r = DatabaseRestartFaults.run(api, 1, 35, logs);
        DatabaseRestartFaults.print(r);
        assertThat(r.violations()).isEmpty();
        assertThat(r.convergeMs()).hasSize(1);
        assertThat(r.committed()).isPositive();
    }
}
