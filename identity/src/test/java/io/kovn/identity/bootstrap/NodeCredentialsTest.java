package io.kovn.identity.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class NodeCredentialsTest {
    private static final CertificateAuthority CA = CertificateAuthority.create("test-ca");
    private static final Instant START = Instant.parse("2026-11-21T06:00:00Z");

    private static NodeCredentials issue(String cn, KeyPair certified, KeyPair held) {
        return NodeCredentials.fromPem(
                Pem.encode(CA.issueClient(
                        Subject.of(cn, "system:ovn-nodes"),
                        certified.getPublic(),
                        START,
                        START.plus(Duration.ofSeconds(100)))),
                Pem.encode(held.getPrivate()));
    }

    @Test
    void rotationDeadlineIsTheFractionOfTheLifetime() {
        KeyPair pair = Keys.ecP256();
        assertThat(issue("system:ovn-node:n1", pair, pair).rotationDeadline(0.8))
                .isEqualTo(START.plusSeconds(80));
    }

    @Test
    void usableOnlyForItsNodeWithinValidityAndWithItsKey() {
        KeyPair pair = Keys.ecP256();
        NodeCredentials credentials = issue("system:ovn-node:n1", pair, pair);
        assertThat(credentials.usableFor("n1", START.plusSeconds(50))).isTrue();
        assertThat(credentials.usableFor("n2", START.plusSeconds(50))).isFalse();
        assertThat(credentials.usableFor("n1", START.plusSeconds(100))).isFalse();
        assertThat(credentials.usableFor("n1", START.minusSeconds(1))).isFalse();
        assertThat(issue("system:ovn-node:n1", pair, Keys.ecP256()).usableFor("n1", START.plusSeconds(50)))
                .isFalse();
    }
}
