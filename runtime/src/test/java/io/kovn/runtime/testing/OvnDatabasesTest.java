package io.kovn.runtime.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.OvsdbServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("real")
class OvnDatabasesTest {

    @Test
    void northdTranslatesNorthboundIntoSouthboundAndCloseRemovesEverything() throws Exception {
        Path dir;
        long nbPid;
        try (OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.withNorthd())) {
            dir = ovn.dir();
            nbPid = ovn.nb().pid().orElseThrow();
            ovn.nbctl("ls-add", "sw0");
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            String datapaths = "";
            while (System.nanoTime() < deadline && !datapaths.contains("sw0")) {
                datapaths = ovn.sbctl("--columns=external_ids", "list", "Datapath_Binding");
                Thread.sleep(50);
            }
            assertThat(datapaths).contains("sw0");
        }
        assertThat(Files.exists(dir)).isFalse();
        assertThat(ProcessHandle.of(nbPid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
    }

    @Test
    void restartServesTheSameDatabaseOnTheSameSocketAndPort() {
        try (OvnDatabases ovn =
                OvnDatabases.start(new OvnDatabases.Config(false, false, OvsdbServerProcess.Options.withTcp()))) {
            ovn.nbctl("ls-add", "kept");
            String tcp = ovn.nb().tcpEndpoint();
            ovn.nb().kill();
            assertThat(ovn.nb().isRunning()).isFalse();
            ovn.nb().restart();
            assertThat(ovn.nb().tcpEndpoint()).isEqualTo(tcp);
            assertThat(ovn.nbctl("--bare", "--columns=name", "list", "Logical_Switch")
                            .trim())
                    .isEqualTo("kept");
            assertThat(Tools.run(List.of(ovn.runtime().bin("ovn-nbctl").toString(), "--db=" + tcp, "ls-list")))
                    .contains("kept");
        }
    }

    @Test
    void locatesTheRuntimeAndNamesItsFiles() {
        OvnRuntime rt = OvnRuntime.locate();
        assertThat(rt.bin("ovsdb-server")).isExecutable();
        assertThat(rt.nbSchema()).isRegularFile();
        assertThat(rt.sbSchema()).isRegularFile();
        assertThat(rt.vswitchSchema()).isRegularFile();
    }

    @Test
    void aMissingRuntimeFailsWithInstructions() {
        String old = System.getProperty("kovn.runtime");
        System.setProperty("kovn.runtime", "/nonexistent/kovn-runtime");
        try {
            assertThatThrownBy(OvnRuntime::locate)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("scripts/install-ovn-runtime.sh");
        } finally {
            System.setProperty("kovn.runtime", old);
        }
    }
}
