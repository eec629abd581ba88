package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kovn.identity.csr.TestCsrs;
import io.kovn.identity.testing.Cluster;
import io.kovn.identity.testing.Writes;
import io.kovn.k8s.client.KubeClients;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * kube-apiserver authenticating node certificates: a certificate of the cluster CA is its CN and O (so a CSR made with
 * it names the node as requester, and a kubelet's names the host), watches run on it, and a certificate of another CA,
 * no credentials or impersonation get the node nowhere.
 */
@Tag("real")
class NodeCertificateAuthenticationTest {
    static Cluster cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = Cluster.withApprover("node1");
    }

    @AfterAll
    static void down() throws Exception {
        cluster.close();
    }

    @Test
    void aCsrMadeWithANodeCertificateNamesTheNodeAsRequester() {
        try (KubernetesClient node = cluster.nodeIdentity("node1")) {
            node.certificates()
                    .v1()
                    .certificateSigningRequests()
                    .resource(TestCsrs.good().withName("renewal").build())
                    .create();
        }
        CertificateSigningRequest stored = cluster.admin
                .certificates()
                .v1()
                .certificateSigningRequests()
                .withName("renewal")
                .get();
        assertThat(stored.getSpec().getUsername()).isEqualTo("system:ovn-node:node1");
        assertThat(stored.getSpec().getGroups()).containsExactlyInAnyOrder("system:ovn-nodes", "system:authenticated");
    }

    @Test
    void aKubeletCertificateIsTheHost() {
        try (KubernetesClient host = KubeClients.forConfig(cluster.hostConfig("node1"))) {
            host.certificates()
                    .v1()
                    .certificateSigningRequests()
                    .resource(TestCsrs.good().withName("bootstrap").build())
                    .create();
        }
        CertificateSigningRequest stored = cluster.admin
                .certificates()
                .v1()
                .certificateSigningRequests()
                .withName("bootstrap")
                .get();
        assertThat(stored.getSpec().getUsername()).isEqualTo("system:node:node1");
        assertThat(stored.getSpec().getGroups()).containsExactlyInAnyOrder("system:nodes", "system:authenticated");
    }

    @Test
    void aWatchRunsOnTheNodeCertificate() throws Exception {
        Config config = cluster.local.configFor("system:ovn-node:node1", "system:ovn-nodes");
        X509Certificate certificate = Pem.certificates(
                        new String(Base64.getDecoder().decode(config.getClientCertData()), StandardCharsets.US_ASCII))
                .getFirst();
        List<String> events = new CopyOnWriteArrayList<>();
        try (KubernetesClient node = KubeClients.forConfig(config);
                Watch watch = node.nodes().withName("node1").watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Node resource) {
                        events.add(action + " " + resource.getMetadata().getAnnotations());
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                })) {
            cluster.annotateNode("node1", "seen", "yes");
            await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(e -> e.contains("seen=yes")));
        }
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(cluster.audit()).anySatisfy(e -> {
                    assertThat(e.withCertificate(Cluster.fingerprint(certificate)))
                            .isTrue();
                    assertThat(List.of(e.user(), e.verb(), e.resource()))
                            .containsExactly("system:ovn-node:node1", "watch", "nodes");
                }));
    }

    @Test
    void aCertificateOfAnotherCaIsUnauthorized() {
        // Named as the cluster CA, so that the client's TLS stack presents the certificate to kube-apiserver
        // (which lists the names of the CAs it accepts); only the signature tells them apart.
        CertificateAuthority rogue = CertificateAuthority.create("kovn-cluster-ca");
        assertThat(rogue.certificate().getSubjectX500Principal())
                .isEqualTo(cluster.clusterCa().getSubjectX500Principal());
        try (KubernetesClient forged =
                withCertificate(rogue, Subject.of("system:ovn-node:node1", "system:ovn-nodes"))) {
            assertThat(Writes.refusal(() -> forged.nodes().withName("node1").get()))
                    .startsWith("401")
                    .contains("Unauthorized");
        }
    }

    @Test
    void noCredentialsIsAnonymousAndImpersonationIsForbidden() {
        Config admin = cluster.admin.getConfiguration();
        Config none = new ConfigBuilder(Config.empty())
                .withMasterUrl(admin.getMasterUrl())
                .withCaCertData(admin.getCaCertData())
                .withRequestRetryBackoffLimit(0)
                .build();
        try (KubernetesClient anonymous = KubeClients.forConfig(none)) {
            assertThat(Writes.refusal(() -> anonymous.nodes().withName("node1").get()))
                    .startsWith("403")
                    .contains("User \"system:anonymous\" cannot get resource \"nodes\"");
        }
        Config sly = new ConfigBuilder(cluster.local.configFor("system:ovn-node:node1", "system:ovn-nodes"))
                .withImpersonateUsername("kubernetes-admin")
                .build();
        try (KubernetesClient impersonating = KubeClients.forConfig(sly)) {
            assertThat(Writes.refusal(
                            () -> impersonating.nodes().withName("node1").get()))
                    .startsWith("403")
                    .contains("User \"system:ovn-node:node1\" cannot impersonate resource \"users\"");
        }
    }

    /** A client presenting a certificate of {@code ca} for {@code subject} to the cluster's kube-apiserver. */
    static KubernetesClient withCertificate(CertificateAuthority ca, Subject subject) {
        KeyPair pair = Keys.ecP256();
        X509Certificate certificate = ca.issueClient(
                subject,
                pair.getPublic(),
                Instant.now().minusSeconds(60),
                Instant.now().plusSeconds(600));
        Base64.Encoder base64 = Base64.getEncoder();
        Config admin = cluster.admin.getConfiguration();
        return KubeClients.forConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl(admin.getMasterUrl())
                .withCaCertData(admin.getCaCertData())
                .withClientCertData(
                        base64.encodeToString(Pem.encode(certificate).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyData(base64.encodeToString(Pem.encodeEcKey(pair).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyAlgo("EC")
                .withRequestRetryBackoffLimit(0)
                .build());
    }
}
