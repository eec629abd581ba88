package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kovn.identity.csr.TestCsrs;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import io.kovn.identity.testing.Cluster;
import io.kovn.k8s.client.KubeClients;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's API front as node identities meet it: a certificate of the signer's CA is its CN/O, so a CSR
 * made with it names the node as requester; watches, large bodies and tokens pass; anything else is refused.
 */
class ApiFrontAuthenticationTest {
    static Cluster cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new Cluster(false, "node1");
    }

    @AfterAll
    static void down() throws Exception {
        cluster.close();
    }

    static KubernetesClient withCertificate(CertificateAuthority ca, Subject subject, String impersonate) {
        KeyPair pair = Keys.ecP256();
        X509Certificate certificate = ca.issueClient(subject, pair.getPublic(), Instant.now().minusSeconds(60), Instant.now().plusSeconds(600));
        Base64.Encoder base64 = Base64.getEncoder();
        var config = cluster.frontConfig()
                .withClientCertData(base64.encodeToString(Pem.encode(certificate).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyData(base64.encodeToString(Pem.encode(pair.getPrivate()).getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyAlgo("EC");
        if (impersonate != null) {
            config.withImpersonateUsername(impersonate);
        }
        return KubeClients.forConfig(config.build());
    }

    static KubernetesClient node1() {
        return withCertificate(cluster.clientCa, Subject.of("system:ovn-node:node1", "system:ovn-nodes"), null);
    }

    @Test
    void aCsrMadeWithANodeCertificateNamesTheNodeAsRequester() {
        try (KubernetesClient node = node1()) {
            node.certificates().v1().certificateSigningRequests().resource(TestCsrs.good().withName("renewal").build()).create();
        }
        CertificateSigningRequest stored = cluster.admin.certificates().v1().certificateSigningRequests().withName("renewal").get();
        assertThat(stored.getSpec().getUsername()).isEqualTo("system:ovn-node:node1");
        assertThat(stored.getSpec().getGroups()).containsExactly("system:ovn-nodes", "system:authenticated");
    }

    @Test
    void aBootstrapTokenIsTheHost() {
        try (KubernetesClient host = KubeClients.forConfig(cluster.bootstrapConfig("node1"))) {
            host.certificates().v1().certificateSigningRequests().resource(TestCsrs.good().withName("bootstrap").build()).create();
        }
        CertificateSigningRequest stored = cluster.admin.certificates().v1().certificateSigningRequests().withName("bootstrap").get();
        assertThat(stored.getSpec().getUsername()).isEqualTo("system:node:node1");
        assertThat(stored.getSpec().getGroups()).containsExactly("system:nodes", "system:authenticated");
    }

    @Test
    void watchesAndLargeBodiesPassThrough() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (KubernetesClient node = node1(); Watch watch = node.nodes().withName("node1").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Node resource) {
                events.add(action + " " + resource.getMetadata().getAnnotations());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            cluster.admin.nodes().withName("node1").edit(n -> new NodeBuilder(n).editMetadata().addToAnnotations("seen", "yes").endMetadata().build());
            await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(e -> e.contains("seen=yes")));
            assertThat(cluster.seen()).anyMatch(r -> r.webSocket() && r.status() == 101
                    && r.identity().filter(i -> i.user().equals("system:ovn-node:node1")).isPresent());

            String big = "x".repeat(3 * 1024 * 1024);
            node.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("big").endMetadata()
                    .addToData("blob", big).build()).create();
            assertThat(node.configMaps().inNamespace("default").withName("big").get().getData().get("blob")).isEqualTo(big);
        }
    }

    @Test
    void aForeignCertificateNoCredentialsAndImpersonationAreRefused() {
        CertificateAuthority rogue = CertificateAuthority.create("kovn-sandbox-client-ca");
        try (KubernetesClient forged = withCertificate(rogue, Subject.of("system:ovn-node:node1", "system:ovn-nodes"), null)) {
            Throwable error = catchThrowable(() -> forged.nodes().withName("node1").get());
            boolean handshake = false;
            for (Throwable t = error; t != null; t = t.getCause()) {
                handshake |= t instanceof SSLException;
            }
            assertThat(handshake || (error instanceof KubernetesClientException k && k.getCode() == 401)).as(String.valueOf(error)).isTrue();
        }
        try (KubernetesClient anonymous = KubeClients.forConfig(cluster.frontConfig().build())) {
            assertThat(catchThrowable(() -> anonymous.nodes().withName("node1").get()))
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(401));
        }
        try (KubernetesClient sly = withCertificate(cluster.clientCa, Subject.of("system:ovn-node:node1", "system:ovn-nodes"), "kubernetes-admin")) {
            assertThat(catchThrowable(() -> sly.nodes().withName("node1").get()))
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        }
    }
}
