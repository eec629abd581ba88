package io.kovn.ovn.generated;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.runtime.OvnRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The typed rows are generated from the schemas committed in {@code ovn/src/main/schemas}; the databases kovn talks to
 * are created from the installed runtime's. They must be the same files, or kovn would write columns the servers do not
 * have (or miss ones they do).
 */
@Tag("real")
class CommittedSchemasTest {
    private static final Path COMMITTED = Path.of("src/main/schemas");

    @Test
    void theCommittedSchemasAreTheInstalledRuntimes() throws Exception {
        // the test command installs the runtime first; without it, this fails saying how to install it
        OvnRuntime runtime = OvnRuntime.locate();
        assertThat(Files.readString(COMMITTED.resolve("ovn-nb.ovsschema")))
                .isEqualTo(Files.readString(runtime.nbSchema()));
        assertThat(Files.readString(COMMITTED.resolve("ovn-sb.ovsschema")))
                .isEqualTo(Files.readString(runtime.sbSchema()));
        assertThat(Files.readString(COMMITTED.resolve("vswitch.ovsschema")))
                .isEqualTo(Files.readString(runtime.vswitchSchema()));
    }
}
