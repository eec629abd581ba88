package io.kovn.sandbox.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("real")
class LeftoversTest {
    private final String prefix =
            "kvt" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";

    @Test
    void cleanupAfterACrashRemovesProcessesNamespacesLinksAndFiles() throws IOException {
        Path folder = Files.createTempDirectory(Path.of("/tmp"), "kvt");
        try {
            // An "up" that died half-way: nothing gets closed.
            Underlay underlay = Underlay.create(prefix, "10.251.20.0/24");
            EmulatedNode node = EmulatedNode.start(underlay, "n1", folder.resolve("n1"), OvnRuntime.locate());
            EmulatedPod pod = EmulatedPod.create(prefix, "default", "p1");
            long vswitchd = node.vswitchd().pid();
            long controller = node.ovnController().pid();
            assertThat(EmulatedPod.onHostNetwork(node, "kube-system", "agent").netns())
                    .isEqualTo(node.netns());

            Leftovers.Report report = Leftovers.cleanup(prefix, folder);

            assertThat(report.killedPids()).contains(vswitchd, controller).hasSizeGreaterThanOrEqualTo(6);
            assertThat(report.namespaces())
                    .containsExactlyInAnyOrder(prefix + "n1", pod.netns().name().orElseThrow());
            assertThat(report.links()).contains(prefix + "br");
            assertThat(ProcessHandle.of(vswitchd)).isEmpty();
            assertThat(ProcessHandle.of(controller)).isEmpty();
            assertThat(folder).doesNotExist();
            assertThat(Leftovers.cleanup(prefix, folder).nothingFound()).isTrue();
        } finally {
            Leftovers.cleanup(prefix, folder);
            assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
            assertThat(Netns.root().links()).noneMatch(l -> l.startsWith(prefix));
        }
    }
}
