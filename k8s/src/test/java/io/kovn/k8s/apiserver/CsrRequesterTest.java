package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The API server, not the client, says who asked for a certificate. */
class CsrRequesterTest {
    static EmbeddedApiServer server;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static CertificateSigningRequest csr(String name, String claimedUser) {
        return new CertificateSigningRequestBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withSignerName("kubernetes.io/kube-apiserver-client").withUsername(claimedUser)
                .withRequest("cmVxdWVzdA==").withUsages("digital signature", "client auth").endSpec().build();
    }

    @Test
    void anImpersonatedRequesterIsRecordedWhateverTheClientClaims() {
        Config cfg = new ConfigBuilder(server.newClient().getConfiguration())
                .withImpersonateUsername("system:node:node-1").withImpersonateGroups("system:nodes").build();
        try (KubernetesClient node = new KubernetesClientBuilder().withConfig(cfg).build()) {
            node.certificates().v1().certificateSigningRequests().resource(csr("by-node", "system:node:node-2")).create();
        }
        var stored = server.newClient().certificates().v1().certificateSigningRequests().withName("by-node").get();
        assertThat(stored.getSpec().getUsername()).isEqualTo("system:node:node-1");
        assertThat(stored.getSpec().getGroups()).containsExactly("system:nodes", "system:authenticated");
    }

    @Test
    void withoutImpersonationTheRequesterIsTheAdmin() {
        server.newClient().certificates().v1().certificateSigningRequests().resource(csr("by-admin", "system:node:node-9")).create();
        var stored = server.newClient().certificates().v1().certificateSigningRequests().withName("by-admin").get();
        assertThat(stored.getSpec().getUsername()).isEqualTo("kubernetes-admin");
        assertThat(stored.getSpec().getGroups()).contains("system:masters");
    }
}
