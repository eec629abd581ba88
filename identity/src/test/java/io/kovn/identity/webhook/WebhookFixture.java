package io.kovn.identity.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.SecureFiles;
import io.kovn.pki.TrustStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLContext;

/** A running webhook on loopback with a fresh CA and serving certificate, and a client trusting that CA. */
final class WebhookFixture implements AutoCloseable {
    final Path folder;
    final CertificateAuthority ca;
    final AdmissionWebhook webhook;
    final HttpClient client;

    WebhookFixture(WebhookPolicy policy, NodeSubnetLookup subnets) {
        this(policy, subnets, AdmissionWebhook.Settings.DEFAULT_MAX_BODY, Duration.ofSeconds(1));
    }

    WebhookFixture(WebhookPolicy policy, NodeSubnetLookup subnets, int maxBody, Duration reloadCheck) {
        try {
            folder = Files.createTempDirectory("kovn-webhook-");
            ca = CertificateAuthority.create("kovn-test-ca");
            writeServingPair();
            webhook = AdmissionWebhook.start(
                    new AdmissionWebhook.Settings(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                            certFile(),
                            keyFile(),
                            maxBody,
                            reloadCheck),
                    new AdmissionHandler(policy, subnets));
            client = HttpClient.newBuilder()
                    .sslContext(clientTls(ca.certificate()))
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static WebhookPolicy defaultPolicy() {
        return WebhookPolicy.of(true, true, Set.of("system:serviceaccount:ovn-kubernetes:ovnkube-node"));
    }

    Path certFile() {
        return folder.resolve("tls.crt");
    }

    Path keyFile() {
        return folder.resolve("tls.key");
    }

    /** Writes a new serving certificate and key for localhost; returns the certificate. */
    X509Certificate writeServingPair() throws IOException {
        KeyPair pair = Keys.ecP256();
        X509Certificate cert = ca.issueServer(
                "kovn-identity", pair.getPublic(), Duration.ofHours(1), List.of("localhost", "127.0.0.1"));
        SecureFiles.writePrivate(keyFile(), Pem.encode(pair.getPrivate()));
        SecureFiles.writeAtomically(certFile(), Pem.encode(cert));
        return cert;
    }

    static SSLContext clientTls(X509Certificate trusted) {
        return TrustStores.clientContext(List.of(trusted));
    }

    URI uri(String path) {
        return URI.create("https://127.0.0.1:" + webhook.address().getPort() + path);
    }

    HttpResponse<byte[]> post(String path, byte[] body) {
        try {
            return client.send(
                    HttpRequest.newBuilder(uri(path))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Posts a review and returns response.allowed / response.status.message after checking the envelope. */
    Verdict review(String path, JsonNode review) {
        HttpResponse<byte[]> response;
        try {
            response = post(path, Reviews.JSON.writeValueAsBytes(review));
            if (response.statusCode() != 200) {
                throw new AssertionError("HTTP " + response.statusCode() + ": " + new String(response.body()));
            }
            JsonNode body = Reviews.JSON.readTree(response.body());
            if (!body.path("response")
                    .path("uid")
                    .asText()
                    .equals(review.path("request").path("uid").asText())) {
                throw new AssertionError("uid not echoed: " + body);
            }
            return new Verdict(
                    body.path("response").path("allowed").asBoolean(false),
                    body.path("response").path("status").path("message").asText(""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Verdict(boolean allowed, String message) {}

    @Override
    public void close() throws IOException {
        webhook.close();
        client.close();
        try (var files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
