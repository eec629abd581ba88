package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kovn.identity.bootstrap.CertificateStore;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import io.kovn.k8s.apiserver.AuthenticatingFront;
import io.kovn.k8s.client.KubeClients;
import io.kovn.sandbox.Prober.Verdict;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Node agents on short-lived certificates (40 s; 2 minutes or a day work the same way, only slower): node-1's
 * agent renews twice with its own certificate through the authenticating API front, and after each rotation it
 * still plumbs new pods (real packets across nodes) and writes to the API server as the new certificate.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeCertificateRotationE2ETest {
    static final Duration LIFETIME = Duration.ofSeconds(40);
    static final String NODE = "node-1";
    static final String NODE_USER = "system:ovn-node:" + NODE;
    static SandboxFixture sb;
    static final List<AuthenticatingFront.Request> requests = new CopyOnWriteArrayList<>();
    static Pod server;

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(2, LIFETIME);
        sb.sandbox.apiFront().onRequest(requests::add);
        sb.namespace("rotation", Map.of());
        sb.pod("rotation", "server", "node-2", Map.of());
        server = sb.awaitRunning("rotation", "server");
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    @Test
    @Order(1)
    void theFrontRefusesACertificateFromAnotherCaAndRequestsWithoutCredentials() {
        CertificateAuthority rogue = CertificateAuthority.create("kovn-sandbox-client-ca"); // same name, other key
        KeyPair pair = Keys.ecP256();
        X509Certificate forged = rogue.issueClient(Subject.of(NODE_USER, "system:ovn-nodes"), pair.getPublic(),
                Instant.now().minusSeconds(60), Instant.now().plusSeconds(3600));
        Base64.Encoder base64 = Base64.getEncoder();
        try (KubernetesClient client = KubeClients.forConfig(frontConfig()
                .withClientCertData(base64.encodeToString(Pem.encode(forged).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyData(base64.encodeToString(Pem.encode(pair.getPrivate()).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyAlgo("EC").build())) {
            assertRefused(catchThrowable(() -> client.nodes().withName(NODE).get()));
        }
        try (KubernetesClient anonymous = KubeClients.forConfig(frontConfig().build())) {
            Throwable error = catchThrowable(() -> anonymous.nodes().withName(NODE).get());
            assertThat(error).isInstanceOf(KubernetesClientException.class);
            assertThat(((KubernetesClientException) error).getCode()).isEqualTo(401);
        }
    }

    @Test
    @Order(2)
    void theAgentRotatesTwiceWithItsOwnCertificateAndKeepsWorking() throws Exception {
        CertificateStore store = new CertificateStore(sb.layout.nodeDir(NODE).resolve("pki"));
        X509Certificate previous = stored(store);
        for (int rotation = 1; rotation <= 2; rotation++) {
            X509Certificate old = previous;
            Duration lifetime = Duration.between(old.getNotBefore().toInstant(), old.getNotAfter().toInstant());
            Instant deadline = old.getNotBefore().toInstant().plus(lifetime.multipliedBy(8).dividedBy(10));
            X509Certificate renewed = await().atMost(lifetime.plusSeconds(15)).pollInterval(Duration.ofMillis(200))
                    .until(() -> stored(store), c -> !c.getSerialNumber().equals(old.getSerialNumber()));
            Instant seen = Instant.now();
            String round = "rotation " + rotation;
            assertThat(seen).as(round + " happens at 80% of the old certificate's lifetime, before it expires")
                    .isAfterOrEqualTo(deadline).isBefore(old.getNotAfter().toInstant());
            assertThat(renewed.getSubjectX500Principal()).isEqualTo(old.getSubjectX500Principal());
            assertThat(renewed.getNotAfter()).isAfter(old.getNotAfter());

            // The renewal was asked for by the node itself, and kovn's approver approved it.
            CertificateSigningRequest csr = csrThatIssued(renewed.getSerialNumber());
            assertThat(csr.getSpec().getUsername()).as(round + " requester").isEqualTo(NODE_USER);
            assertThat(csr.getSpec().getGroups()).contains("system:ovn-nodes");
            assertThat(csr.getSpec().getExpirationSeconds()).isEqualTo((int) LIFETIME.toSeconds());
            assertThat(csr.getStatus().getConditions()).singleElement().satisfies(c -> {
                assertThat(c.getType()).isEqualTo("Approved");
                assertThat(c.getReason()).isEqualTo("AutoApproved");
            });

            // The agent's API traffic moves to the new certificate: its pod watch and its Node annotations.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(requests).as(round + ": pod watch on the new certificate").anyMatch(r ->
                        r.by(NODE_USER, renewed.getSerialNumber()) && r.webSocket() && r.path().equals("/api/v1/pods")
                                && r.status() == 101);
                assertThat(requests).as(round + ": Node annotations written with the new certificate").anyMatch(r ->
                        r.by(NODE_USER, renewed.getSerialNumber()) && r.method().equals("PATCH")
                                && r.path().equals("/api/v1/nodes/" + NODE) && r.status() == 200);
            });
            assertThat(sb.client.nodes().withName(NODE).get().getMetadata().getAnnotations())
                    .containsKeys("k8s.ovn.org/node-chassis-id", "k8s.ovn.org/node-encap-ips");

            // A pod created now on the node is plumbed by the agent, and real packets flow both ways.
            String name = "after-" + rotation;
            sb.pod("rotation", name, NODE, Map.of());
            Pod fresh = sb.awaitRunning("rotation", name);
            var out = sb.probe(fresh, server, "tcp", 80);
            assertThat(out.verdict()).as(round + ": " + name + " -> server").isEqualTo(Verdict.ALLOWED);
            assertThat(out.answer()).isEqualTo("server");
            var back = sb.probe(server, fresh, "tcp", 80);
            assertThat(back.verdict()).as(round + ": server -> " + name).isEqualTo(Verdict.ALLOWED);
            assertThat(back.answer()).isEqualTo(name);
            previous = renewed;
        }
        assertThat(requests).as("nothing the node did as itself was forbidden")
                .noneMatch(r -> r.identity().filter(i -> i.user().equals(NODE_USER)).isPresent() && r.status() == 403);
        List<CertificateSigningRequest> ofNode = csrsOf(NODE);
        assertThat(ofNode).as("one bootstrap request, made with the host's credentials")
                .filteredOn(c -> c.getSpec().getUsername().equals("system:node:" + NODE)).hasSize(1);
        assertThat(ofNode).as("no request of the node was denied or failed").allSatisfy(c ->
                assertThat(c.getStatus().getConditions()).noneMatch(k -> k.getType().equals("Denied") || k.getType().equals("Failed")));
    }

    private static ConfigBuilder frontConfig() {
        return new ConfigBuilder(Config.empty()).withMasterUrl(sb.sandbox.apiFront().url())
                .withCaCertData(Base64.getEncoder().encodeToString(Pem.encode(sb.sandbox.apiFrontCa()).getBytes(StandardCharsets.US_ASCII)))
                .withRequestRetryBackoffLimit(0);
    }

    /** Refused either in the handshake or, when the client sent no certificate the front trusts, with 401. */
    private static void assertRefused(Throwable error) {
        assertThat(error).isNotNull();
        boolean handshake = false;
        for (Throwable t = error; t != null; t = t.getCause()) {
            handshake |= t instanceof SSLException;
        }
        if (!handshake) {
            assertThat(error).isInstanceOf(KubernetesClientException.class);
            assertThat(((KubernetesClientException) error).getCode()).isEqualTo(401);
        }
    }

    private static X509Certificate stored(CertificateStore store) throws Exception {
        return Pem.certificates(Files.readString(store.certificateFile())).getFirst();
    }

    private static List<CertificateSigningRequest> csrsOf(String node) {
        return sb.client.certificates().v1().certificateSigningRequests().list().getItems().stream()
                .filter(c -> c.getSpec().getUsername().endsWith(":" + node)).toList();
    }

    private static CertificateSigningRequest csrThatIssued(BigInteger serial) {
        return csrsOf(NODE).stream()
                .filter(c -> c.getStatus() != null && c.getStatus().getCertificate() != null)
                .filter(c -> issued(c).map(X509Certificate::getSerialNumber).filter(serial::equals).isPresent())
                .findFirst().orElseThrow(() -> new AssertionError("no CSR issued certificate " + serial));
    }

    private static Optional<X509Certificate> issued(CertificateSigningRequest csr) {
        String pem = new String(Base64.getMimeDecoder().decode(csr.getStatus().getCertificate()), StandardCharsets.US_ASCII);
        return Pem.certificates(pem).stream().findFirst();
    }
}
