package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.runtime.net.Netns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a test run killed from outside leaves behind is removed by the next fixture's sweep, and only that. */
@Tag("real")
class StaleSandboxesTest {

    @Test
    void aClaimOfAGoneJvmIsCleanedUpAndALiveOneIsLeftAlone() throws Exception {
        String stale = "kve" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
        String live = "kve" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
        Path staleDir = Files.createTempDirectory(Path.of("/tmp"), "kve");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        try {
            Netns.add(stale + "n1");
            Netns.add(live + "n1");
            StaleSandboxes.claim(stale, staleDir);
            Files.writeString(StaleSandboxes.CLAIMS.resolve(stale), gone.pid() + " " + staleDir);
            StaleSandboxes.claim(live, Path.of("/tmp/" + live));

            assertThat(StaleSandboxes.sweep()).contains(stale).doesNotContain(live);

            assertThat(Netns.list()).noneMatch(n -> n.startsWith(stale)).contains(live + "n1");
            assertThat(staleDir).doesNotExist();
            assertThat(StaleSandboxes.CLAIMS.resolve(stale)).doesNotExist();
            assertThat(StaleSandboxes.CLAIMS.resolve(live)).exists();
        } finally {
            for (String prefix : new String[] {stale, live}) {
                Netns.list().stream()
                        .filter(n -> n.startsWith(prefix))
                        .forEach(n -> Netns.named(n).delete());
                StaleSandboxes.release(prefix);
            }
            Files.deleteIfExists(staleDir);
        }
    }
}
