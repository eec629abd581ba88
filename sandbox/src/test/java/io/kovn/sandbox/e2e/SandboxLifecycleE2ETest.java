package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.runtime.net.Netns;
import io.kovn.sandbox.SandboxConfig;
import io.kovn.sandbox.SandboxControl;
import io.kovn.sandbox.SandboxLayout;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kovn sandbox up} / {@code down} as the CLI runs them: a detached daemon JVM that keeps the cluster running,
 * and a {@code down} that leaves no process, namespace, link or file behind.
 */
@Tag("real")
class SandboxLifecycleE2ETest {
    @Test
    void upStartsADetachedDaemonAndDownRemovesEverything(@TempDir Path tmp) throws Exception {
        String prefix = "kvl" + Long.toHexString(System.nanoTime() & 0xfff) + "-";
        SandboxLayout layout = new SandboxLayout(tmp.resolve("state"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SandboxControl control = new SandboxControl(layout, new PrintStream(out, true));
        System.setProperty("kovn.root", Path.of("").toAbsolutePath().getParent().toString());
        try {
            control.up(new SandboxConfig(2, prefix, "10.253.251.0/24"), Duration.ofSeconds(120));
            assertThat(control.daemon()).as("daemon running").isPresent();
            assertThat(out.toString()).contains("sandbox ready");
            assertThat(Files.readString(layout.kubeconfig())).contains("server:");
            assertThat(Netns.list()).contains(prefix + "node-1", prefix + "node-2", prefix + "outside");
            long daemonPid = control.daemon().get().pid();

            control.down(true);
            assertThat(ProcessHandle.of(daemonPid).filter(ProcessHandle::isAlive))
                    .as("daemon stopped")
                    .isEmpty();
            assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
            assertThat(Netns.root().links()).noneMatch(l -> l.startsWith(prefix));
            assertThat(processesMentioning(layout.dir().toString()))
                    .as("processes left")
                    .isEmpty();
            assertThat(layout.dir()).doesNotExist();
        } finally {
            control.down(false);
        }
    }

    private static List<String> processesMentioning(String text) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(text)).orElse(false))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                .toList();
    }
}
