package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who a request is, from its verified certificate or its token, at the time of the request. */
class FrontAuthenticatorTest {
    static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
    static final ClientIdentity HOST = ClientIdentity.of("system:node:node-1", "system:nodes");
    final FrontAuthenticator authenticator = new FrontAuthenticator(Map.of("host-token", HOST));

    static X509Certificate valid(String subject) {
        return SelfSignedCertificates.of(subject, NOW.minusSeconds(60), NOW.plusSeconds(60));
    }

    Optional<ClientIdentity> who(List<X509Certificate> chain, String authorization, Instant at) {
        return authenticator.authenticate(chain, authorization, at).map(FrontAuthenticator.Authenticated::identity);
    }

    @Test
    void aCertificateNamesTheUserByCnAndTheGroupsByO() {
        X509Certificate cert = valid("CN=system:ovn-node:node-1,O=system:ovn-nodes,O=extra");
        var result = authenticator.authenticate(List.of(cert), null, NOW).orElseThrow();
        assertThat(result.identity()).isEqualTo(ClientIdentity.of("system:ovn-node:node-1", "system:ovn-nodes", "extra"));
        assertThat(result.certificate()).contains(cert);
    }

    @Test
    void aCertificateWinsOverAToken() {
        assertThat(who(List.of(valid("CN=alice")), "Bearer host-token", NOW)).contains(ClientIdentity.of("alice"));
    }

    @Test
    void aTokenAuthenticatesWithoutACertificate() {
        assertThat(who(List.of(), "Bearer host-token", NOW)).contains(HOST);
        assertThat(who(List.of(), "bearer  host-token ", NOW)).as("scheme is case-insensitive").contains(HOST);
    }

    @Test
    void anExpiredCertificateStopsAuthenticatingOnAConnectionThatOutlivesIt() {
        X509Certificate cert = valid("CN=system:ovn-node:node-1,O=system:ovn-nodes");
        assertThat(who(List.of(cert), null, NOW.plus(Duration.ofSeconds(61)))).isEmpty();
        assertThat(who(List.of(cert), null, NOW.minus(Duration.ofSeconds(61)))).as("not yet valid").isEmpty();
        assertThat(who(List.of(cert), "Bearer host-token", NOW.plus(Duration.ofSeconds(61)))).contains(HOST);
    }

    @Test
    void nothingUsableIsUnauthenticated() {
        assertThat(who(List.of(), null, NOW)).isEmpty();
        assertThat(who(List.of(), "Bearer wrong", NOW)).isEmpty();
        assertThat(who(List.of(), "Basic aG9zdC10b2tlbg==", NOW)).isEmpty();
        assertThat(who(List.of(valid("O=system:masters")), null, NOW)).as("no CN").isEmpty();
        assertThat(who(List.of(valid("CN=a+CN=b")), null, NOW)).as("two CNs").isEmpty();
    }
}
