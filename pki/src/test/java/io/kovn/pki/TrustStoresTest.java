package io.kovn.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustStoresTest {
    private static final CertificateAuthority FIRST = CertificateAuthority.create("first-ca");
    private static final CertificateAuthority SECOND = CertificateAuthority.create("second-ca");
    private static final CertificateAuthority STRANGER =
            CertificateAuthority.create("first-ca"); // same name, other key

    @Test
    void aPemFileWithOneCaTrustsWhatItSignedAndNothingElse(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("ca.crt"), Pem.encode(FIRST.certificate()));
        X509TrustManager trust = x509(TrustStores.fromPem(file));
        assertThat(trust.getAcceptedIssuers()).containsExactly(FIRST.certificate());
        assertThatCode(() -> trust.checkServerTrusted(served(FIRST), "ECDHE_ECDSA"))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> trust.checkServerTrusted(served(STRANGER), "ECDHE_ECDSA"))
                .isInstanceOf(CertificateException.class);
    }

    @Test
    void aPemFileWithTwoCasTrustsBoth(@TempDir Path dir) throws Exception {
        // a CA bundle as kubeconfigs and --client-ca-file carry it during a CA rotation; a key block in between is
        // skipped
        Path file = Files.writeString(
                dir.resolve("bundle.crt"),
                Pem.encode(FIRST.certificate())
                        + Pem.encode(Keys.ecP256().getPrivate())
                        + Pem.encode(SECOND.certificate()));
        X509TrustManager trust = x509(TrustStores.fromPem(file));
        assertThat(trust.getAcceptedIssuers()).containsExactlyInAnyOrder(FIRST.certificate(), SECOND.certificate());
        trust.checkServerTrusted(served(FIRST), "ECDHE_ECDSA");
        trust.checkServerTrusted(served(SECOND), "ECDHE_ECDSA");
    }

    @Test
    void garbageIsAnIllegalArgumentNamingTheFile(@TempDir Path dir) throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "this is not a certificate\n");
        assertThatThrownBy(() -> TrustStores.fromPem(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no CERTIFICATE in the CA file " + text);
        Path broken = Files.writeString(
                dir.resolve("broken.crt"), "-----BEGIN CERTIFICATE-----\n!!not base64!!\n-----END CERTIFICATE-----\n");
        assertThatThrownBy(() -> TrustStores.fromPem(broken))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the CA file " + broken + " is not PEM: ");
        Path keyOnly = Files.writeString(
                dir.resolve("ca.key"), Pem.encode(Keys.ecP256().getPrivate()));
        assertThatThrownBy(() -> TrustStores.fromPem(keyOnly))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no CERTIFICATE in the CA file " + keyOnly);
    }

    @Test
    void aMissingFileIsAnIoErrorNamingIt(@TempDir Path dir) {
        Path missing = dir.resolve("absent.crt");
        assertThatThrownBy(() -> TrustStores.fromPem(missing))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(missing.toString());
    }

    @Test
    void nothingToTrustIsRefusedUpFront() {
        assertThatThrownBy(() -> TrustStores.of(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no CA certificate to trust");
        assertThatThrownBy(() -> TrustStores.clientContext(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theStoreHoldsEachCaAsATrustedEntry() throws Exception {
        var store = TrustStores.of(List.of(FIRST.certificate(), SECOND.certificate()));
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.getCertificateAlias(SECOND.certificate())).isNotNull();
        assertThat(store.isCertificateEntry(store.getCertificateAlias(FIRST.certificate())))
                .isTrue();
    }

    private static X509Certificate[] served(CertificateAuthority ca) {
        return new X509Certificate[] {
            ca.issueServer("webhook", Keys.ecP256().getPublic(), Duration.ofHours(1), List.of("127.0.0.1"))
        };
    }

    private static X509TrustManager x509(TrustManager[] managers) {
        assertThat(managers).singleElement().isInstanceOf(X509TrustManager.class);
        return (X509TrustManager) managers[0];
    }
}
