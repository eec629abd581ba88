package io.kovn.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The children of a JVM killed hard are killed by the next JVM's sweep of the ledger; nobody else's are. */
class ChildProcessesTest {
    @Test
    void theChildrenOfADeadJvmAreKilledAndALiveJvmsAreLeftAlone(@TempDir Path ledger) throws Exception {
        Process deadJvm = new ProcessBuilder("true").start();
        String deadKey = ChildProcesses.key(deadJvm.toHandle());
        deadJvm.waitFor();
        Process orphan = new ProcessBuilder("sleep", "300").start();
        Process othersChild = new ProcessBuilder("sleep", "300").start();
        try {
            ChildProcesses.record(ledger.resolve(deadKey), orphan.toHandle());
            // a record whose pid is alive but belongs to another process now (pid reuse): left alone
            Files.writeString(ledger.resolve(deadKey).resolve(othersChild.pid() + "-1"), "");
            // a live JVM's child: left alone
            Path liveJvm = ledger.resolve(ChildProcesses.key(ProcessHandle.current()) + "x");
            Path mine = ledger.resolve(ChildProcesses.key(ProcessHandle.current()));
            ChildProcesses.record(mine, othersChild.toHandle());

            assertThat(ChildProcesses.sweep(ledger, liveJvm)).isEqualTo(1);

            assertThat(orphan.waitFor(5, TimeUnit.SECONDS)).isTrue();
            assertThat(othersChild.isAlive()).isTrue();
            assertThat(ledger.resolve(deadKey)).doesNotExist();
            assertThat(mine).exists();
        } finally {
            orphan.destroyForcibly();
            othersChild.destroyForcibly();
        }
    }

    @Test
    void noLedgerYetIsNothingToSweep(@TempDir Path tmp) {
        assertThat(ChildProcesses.sweep(tmp.resolve("none"), tmp.resolve("none/me")))
                .isZero();
    }
}
