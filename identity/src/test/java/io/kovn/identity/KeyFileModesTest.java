package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.identity.bootstrap.CertificateStore;
import io.kovn.identity.bootstrap.NodeCredentials;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Private keys kovn writes are mode 0600 from their creation, in folders it creates with mode 0700 (parents too); the
 * certificates beside them are 0644. The webhook's serving key in the sandbox is checked where the sandbox writes it
 * ({@code SecurityScenariosTest}).
 */
class KeyFileModesTest {
    @TempDir
    Path dir;

    @Test
    void nodeIdentityKeyIsOwnerOnlyInAnOwnerOnlyFolder() throws IOException {
        CertificateAuthority ca = CertificateAuthority.create("test-ca");
        KeyPair pair = Keys.ecP256();
        NodeCredentials credentials = NodeCredentials.fromPem(
                Pem.encode(ca.issueClient(
                        Subject.of("system:ovn-node:n1", "system:ovn-nodes"),
                        pair.getPublic(),
                        Instant.now(),
                        Instant.now().plusSeconds(600))),
                Pem.encode(pair.getPrivate()));
        CertificateStore store = new CertificateStore(dir.resolve("var/lib/kovn/pki"));
        store.save(credentials);
        store.save(credentials); // a rotation replaces the files: the modes stay
        assertThat(mode(store.keyFile())).isEqualTo("rw-------");
        assertThat(mode(store.certificateFile())).isEqualTo("rw-r--r--");
        assertThat(mode(dir.resolve("var/lib/kovn/pki"))).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("var"))).isEqualTo("rwx------");
        try (var files = Files.list(store.keyFile().getParent())) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("ovn-node.key", "ovn-node.crt");
        }
    }

    @Test
    void aStoredCaKeyIsOwnerOnlyInAnOwnerOnlyFolder() throws IOException {
        CertificateAuthority.loadOrCreate(dir.resolve("webhook-ca"), "kovn-sandbox-webhook-ca");
        assertThat(mode(dir.resolve("webhook-ca"))).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("webhook-ca/ca.key"))).isEqualTo("rw-------");
        assertThat(mode(dir.resolve("webhook-ca/ca.crt"))).isEqualTo("rw-r--r--");
    }

    static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
