package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.runtime.net.Netns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code sandbox down} may remove: the namespaces named by the folder's own prefix file, and by the default prefix
 * only for the machine's default folder. A random prefix stands for the default one here, so that a failure cannot
 * touch a developer's running sandbox.
 */
@Tag("real")
class SandboxDownTest {
    private final String prefix =
            "kvd" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @TempDir
    Path tmp;

    @AfterEach
    void cleanUp() {
        Netns.list().stream()
                .filter(n -> n.startsWith(prefix))
                .forEach(n -> Netns.named(n).delete());
    }

    private SandboxControl control(Path folder) {
        return new SandboxControl(
                new SandboxLayout(folder),
                new PrintStream(out, true),
                new SandboxLayout(tmp.resolve("machine-default")),
                prefix);
    }

    @Test
    void aSecondDownOfAnotherFolderLeavesTheDefaultSandboxsNamespacesAlone() throws Exception {
        // the running default sandbox's node; the folder was a test's, already taken down once (so no prefix file)
        Netns.add(prefix + "node-1");

        control(tmp.resolve("a-tests-folder")).down(true);

        assertThat(Netns.list()).contains(prefix + "node-1");
        assertThat(out.toString()).contains("no sandbox running");
    }

    @Test
    void theDefaultFolderIsCleanedByTheDefaultPrefixEvenWithoutItsPrefixFile() throws Exception {
        Netns.add(prefix + "node-1");

        control(tmp.resolve("machine-default")).down(true);

        assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
        assertThat(out.toString()).contains("removed leftovers").contains(prefix + "node-1");
    }

    @Test
    void anyFolderIsCleanedByThePrefixItRecorded() throws Exception {
        Path folder = tmp.resolve("recorded");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("prefix"), prefix);
        Netns.add(prefix + "node-1");

        control(folder).down(true);

        assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
        assertThat(folder).doesNotExist();
    }
}
