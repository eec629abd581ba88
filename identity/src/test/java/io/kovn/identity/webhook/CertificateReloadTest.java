package io.kovn.identity.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

class CertificateReloadTest {

    @Test
    void servesNewCertificateFilesWithoutRestart() throws Exception {
        try (WebhookFixture fixture = new WebhookFixture(
                WebhookFixture.defaultPolicy(),
                n -> Optional.empty(),
                AdmissionWebhook.Settings.DEFAULT_MAX_BODY,
                Duration.ofMillis(100))) {
            X509Certificate first = served(fixture, "TLSv1.3");
            X509Certificate second = fixture.writeServingPair();
            assertThat(second.getSerialNumber()).isNotEqualTo(first.getSerialNumber());
            await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> served(fixture, "TLSv1.3").getSerialNumber().equals(second.getSerialNumber()));
            assertThat(served(fixture, "TLSv1.2").getSerialNumber()).isEqualTo(second.getSerialNumber());
            assertThat(fixture.review(AdmissionHandler.NODE_PATH, BadInputTest.attack())
                            .allowed())
                    .isFalse();
        }
    }

    @Test
    void keepsServingWhenNewFilesAreBroken() throws Exception {
        try (WebhookFixture fixture = new WebhookFixture(
                WebhookFixture.defaultPolicy(),
                n -> Optional.empty(),
                AdmissionWebhook.Settings.DEFAULT_MAX_BODY,
                Duration.ofMillis(50))) {
            X509Certificate first = served(fixture, "TLSv1.3");
            Files.writeString(fixture.certFile(), "-----BEGIN CERTIFICATE-----\nbroken\n");
            await().during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(2))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> served(fixture, "TLSv1.3").getSerialNumber().equals(first.getSerialNumber()));
        }
    }

    private static X509Certificate served(WebhookFixture fixture, String protocol) throws Exception {
        var tls = WebhookFixture.clientTls(fixture.ca.certificate());
        try (SSLSocket socket = (SSLSocket) tls.getSocketFactory()
                .createSocket("127.0.0.1", fixture.webhook.address().getPort())) {
            socket.setEnabledProtocols(new String[] {protocol});
            socket.startHandshake();
            assertThat(socket.getSession().getProtocol()).isEqualTo(protocol);
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
