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
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.AuditLog;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import io.kovn.sandbox.Prober.Verdict;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Node agents on the shortest certificates kube-controller-manager signs (10 minutes, back-dated 5 minutes, so valid
 * for 15), rotating early (at 36% of that validity, about 25 s after issue; 80% of a day works the same way, only
 * slower): node-1's agent renews twice with its own certificate, kovn's approver approves and kube-controller-manager
 * signs, and after each rotation the agent still plumbs new pods (real packets across nodes) and talks to
 * kube-apiserver with the new certificate, as kube-apiserver's audit log shows.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class NodeCertificateRotationE2ETest {
    static final Duration LIFETIME = Duration.ofMinutes(10);
    static final double ROTATION = 0.36;
    static final String NODE = "node-1";
    static final String NODE_USER = "system:ovn-node:" + NODE;
    static SandboxFixture sb;
    static Pod server;

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(2, LIFETIME, ROTATION);
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
    void kubeApiserverRefusesACertificateFromAnotherCaAndGivesAnonymousNothing() {
        CertificateAuthority rogue = CertificateAuthority.create("kovn-cluster-ca"); // same name, other key
        KeyPair pair = Keys.ecP256();
        X509Certificate forged = rogue.issueClient(
                Subject.of(NODE_USER, "system:ovn-nodes"),
                pair.getPublic(),
                Instant.now().minusSeconds(60),
                Instant.now().plusSeconds(3600));
        Base64.Encoder base64 = Base64.getEncoder();
        try (KubernetesClient client = KubeClients.forConfig(serverConfig()
                .withClientCertData(base64.encodeToString(Pem.encode(forged).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyData(base64.encodeToString(Pem.encodeEcKey(pair).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyAlgo("EC")
                .build())) {
            Throwable error = catchThrowable(() -> client.nodes().withName(NODE).get());
            assertThat(error).isInstanceOf(KubernetesClientException.class);
            assertThat(((KubernetesClientException) error).getCode()).isEqualTo(401);
        }
        try (KubernetesClient anonymous = KubeClients.forConfig(serverConfig().build())) {
            Throwable error =
                    catchThrowable(() -> anonymous.nodes().withName(NODE).get());
            assertThat(error).isInstanceOf(KubernetesClientException.class);
            assertThat(((KubernetesClientException) error).getCode()).isEqualTo(403);
            assertThat(error.getMessage()).contains("User \"system:anonymous\" cannot get resource \"nodes\"");
        }
    }

    @Test
    @Order(2)
    void theAgentRotatesTwiceWithItsOwnCertificateAndKeepsWorking() throws Exception {
        CertificateStore store = new CertificateStore(sb.layout.nodeDir(NODE).resolve("pki"));
        X509Certificate previous = stored(store);
        for (int rotation = 1; rotation <= 2; rotation++) {
            X509Certificate old = previous;
            Duration lifetime = Duration.between(
                    old.getNotBefore().toInstant(), old.getNotAfter().toInstant());
            Instant deadline = old.getNotBefore().toInstant().plusMillis((long) (lifetime.toMillis() * ROTATION));
            X509Certificate renewed = await().atMost(lifetime.plusSeconds(15))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> stored(store), c -> !c.getSerialNumber().equals(old.getSerialNumber()));
            Instant seen = Instant.now();
            String round = "rotation " + rotation;
            assertThat(seen)
                    .as(round
                            + " happens at the rotation fraction of the old certificate's validity, before it expires")
                    .isAfterOrEqualTo(deadline)
                    .isBefore(old.getNotAfter().toInstant());
            assertThat(renewed.getSubjectX500Principal()).isEqualTo(old.getSubjectX500Principal());
            assertThat(renewed.getNotAfter()).isAfter(old.getNotAfter());

            // The renewal was asked for by the node itself, kovn's approver approved it, kube-controller-manager signed
            // it.
            assertThat(renewed.getIssuerX500Principal().getName()).contains("kovn-cluster-ca");
            CertificateSigningRequest csr = csrThatIssued(renewed.getSerialNumber());
            assertThat(csr.getSpec().getUsername()).as(round + " requester").isEqualTo(NODE_USER);
            assertThat(csr.getSpec().getGroups()).contains("system:ovn-nodes");
            assertThat(csr.getSpec().getExpirationSeconds()).isEqualTo((int) LIFETIME.toSeconds());
            assertThat(csr.getStatus().getConditions()).singleElement().satisfies(c -> {
                assertThat(c.getType()).isEqualTo("Approved");
                assertThat(c.getReason()).isEqualTo("AutoApproved");
            });

            // The agent's API traffic moves to the new certificate: its pod watch and its Node annotations.
            String fingerprint = sha256(renewed);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                List<AuditLog.Entry> byNewCertificate = audit().stream()
                        .filter(e -> e.user().equals(NODE_USER) && e.withCertificate(fingerprint))
                        .toList();
                assertThat(byNewCertificate)
                        .as(round + ": pod watch on the new certificate")
                        .anyMatch(e -> e.verb().equals("watch") && e.resource().equals("pods"));
                assertThat(byNewCertificate)
                        .as(round + ": Node annotations written with the new certificate")
                        .anyMatch(e -> e.verb().equals("patch")
                                && e.resource().equals("nodes")
                                && e.subresource().equals("status")
                                && e.name().equals(NODE)
                                && e.code() == 200);
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
        assertThat(audit())
                .as("nothing the node did as itself was forbidden")
                .noneMatch(e -> e.user().equals(NODE_USER) && e.code() == 403);
        List<CertificateSigningRequest> ofNode = csrsOf(NODE);
        assertThat(ofNode)
                .as("one bootstrap request, made with the host's credentials")
                .filteredOn(c -> c.getSpec().getUsername().equals("system:node:" + NODE))
                .hasSize(1);
        assertThat(ofNode)
                .as("no request of the node was denied or failed")
                .allSatisfy(c -> assertThat(c.getStatus().getConditions())
                        .noneMatch(
                                k -> k.getType().equals("Denied") || k.getType().equals("Failed")));
    }

    /** kube-apiserver's address and CA, without credentials. */
    private static ConfigBuilder serverConfig() {
        Config admin = sb.client.getConfiguration();
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(admin.getMasterUrl())
                .withCaCertData(admin.getCaCertData())
                .withRequestRetryBackoffLimit(0);
    }

    private static List<AuditLog.Entry> audit() {
        return AuditLog.read(sb.sandbox.cluster().controlPlane().auditLog());
    }

    private static String sha256(X509Certificate certificate) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
    }

    private static X509Certificate stored(CertificateStore store) throws Exception {
        return Pem.certificates(Files.readString(store.certificateFile())).getFirst();
    }

    private static List<CertificateSigningRequest> csrsOf(String node) {
        return sb.client.certificates().v1().certificateSigningRequests().list().getItems().stream()
                .filter(c -> c.getSpec().getUsername().endsWith(":" + node))
                .toList();
    }

    private static CertificateSigningRequest csrThatIssued(BigInteger serial) {
        return csrsOf(NODE).stream()
                .filter(c -> c.getStatus() != null && c.getStatus().getCertificate() != null)
                .filter(c -> issued(c)
                        .map(X509Certificate::getSerialNumber)
                        .filter(serial::equals)
                        .isPresent())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no CSR issued certificate " + serial));
    }

    private static Optional<X509Certificate> issued(CertificateSigningRequest csr) {
        String pem =
                new String(Base64.getMimeDecoder().decode(csr.getStatus().getCertificate()), StandardCharsets.US_ASCII);
        return Pem.certificates(pem).stream().findFirst();
    }
}
