package io.kovn.identity;

import static io.kovn.identity.testing.Writes.annotation;
import static io.kovn.identity.testing.Writes.nodeStatus;
import static io.kovn.identity.testing.Writes.refusal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.testing.Cluster;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import io.kovn.pki.TrustStores;
import io.kovn.runtime.ControlPlanePki;
import io.kovn.runtime.KubeControlPlane;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The identity webhook run with {@code --client-ca-file} (the cluster CA) behind the real kube-apiserver, whose
 * admission configuration gives it a client certificate of that CA for admission webhooks: kube-apiserver's calls are
 * answered (a node's writes get the webhook's verdicts), while a caller with no client certificate, or with one of
 * another CA bearing the same name, gets no TLS session and so no answer at all.
 */
@Tag("real")
class WebhookClientAuthTest {
    private static final char[] NO_PASSWORD = new char[0];

    static Cluster cluster;
    static KubernetesClient n1;

    @BeforeAll
    static void up() throws Exception {
        cluster = Cluster.withIdentityServiceRequiringClientCertificates("n1", "n2");
        n1 = cluster.nodeIdentity("n1");
    }

    @AfterAll
    static void down() throws Exception {
        if (n1 != null) {
            n1.close();
        }
        cluster.close();
    }

    @Test
    void kubeApiServerPresentsItsCertificateAndGetsVerdicts() {
        // allowed: stored (failurePolicy Fail, so an unanswered call would have refused it)
        nodeStatus(n1, "n1", annotation("k8s.ovn.org/node-encap-ips", "[\"172.18.0.3\"]"));
        assertThat(cluster.admin.nodes().withName("n1").get().getMetadata().getAnnotations())
                .containsEntry("k8s.ovn.org/node-encap-ips", "[\"172.18.0.3\"]");
        // denied by the webhook's rule, not by a failed call
        assertThat(refusal(() -> nodeStatus(n1, "n2", annotation("k8s.ovn.org/node-encap-ips", "[\"172.18.0.66\"]"))))
                .contains("admission webhook \"node.identity.kovn.io\" denied the request: "
                        + "node identity system:ovn-node:n1 is not allowed to modify node n2");
    }

    @Test
    void aCallerWithoutAClientCertificateGetsNoAnswer() throws Exception {
        try (HttpClient http = client(null)) {
            assertThatThrownBy(() -> get(http, "/healthz")).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> post(http, "/node", "{}")).isInstanceOf(IOException.class);
        }
    }

    @Test
    void aCertificateOfAnotherCaGetsNoAnswer() throws Exception {
        CertificateAuthority other = CertificateAuthority.create("kovn-cluster-ca"); // the cluster CA's name
        KeyPair pair = Keys.ecP256();
        Instant now = Instant.now();
        X509Certificate forged = other.issueClient(
                Subject.of(KubeControlPlane.WEBHOOK_CLIENT),
                pair.getPublic(),
                now.minus(Duration.ofMinutes(5)),
                now.plus(Duration.ofHours(1)));
        try (HttpClient http = client(keyStore(Pem.encode(forged), Pem.encodeEcKey(pair)))) {
            assertThatThrownBy(() -> get(http, "/healthz")).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> post(http, "/node", "{}")).isInstanceOf(IOException.class);
        }
    }

    @Test
    void aCertificateOfTheClientCaIsAnswered() throws Exception {
        ControlPlanePki.ClientCredentials credentials =
                cluster.local.controlPlane().pki().issueClient(KubeControlPlane.WEBHOOK_CLIENT, List.of());
        try (HttpClient http = client(keyStore(credentials.certificatePem(), credentials.keyPem()))) {
            assertThat(get(http, "/healthz").statusCode()).isEqualTo(200);
            HttpResponse<String> bad = post(http, "/node", "{}");
            assertThat(bad.statusCode()).isEqualTo(400); // answered by the handler: not an AdmissionReview
        }
    }

    /** A client trusting the webhook's serving CA, presenting the key store's certificate (none when null). */
    private static HttpClient client(KeyStore clientCertificate) throws Exception {
        KeyManagerFactory kmf = null;
        if (clientCertificate != null) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(clientCertificate, NO_PASSWORD);
        }
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(
                kmf == null ? null : kmf.getKeyManagers(),
                TrustStores.trustManagers(List.of(cluster.identity.webhookCa())),
                null);
        return HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static KeyStore keyStore(String certificatePem, String keyPem) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(
                "client",
                Pem.privateKey(keyPem),
                NO_PASSWORD,
                Pem.certificates(certificatePem).toArray(X509Certificate[]::new));
        return store;
    }

    private static HttpResponse<String> get(HttpClient http, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(HttpClient http, String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return cluster.identity.webhookUri().resolve(path);
    }
}
