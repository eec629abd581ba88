package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The CSR {@code approval} subresource, which kovn's CSR approver writes through. */
class CsrApprovalTest {

    @Test
    void approvingACsrSetsOnlyItsApprovalConditionAndSigningSetsTheCertificate() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start(); KubernetesClient client = server.newClient()) {
            var csrs = client.certificates().v1().certificateSigningRequests();
            csrs.resource(new CertificateSigningRequestBuilder()
                    .withNewMetadata().withName("node-a").endMetadata()
                    .withNewSpec().withSignerName("kubernetes.io/kube-apiserver-client").withUsername("system:ovn-node:a")
                    .withRequest(Base64.getEncoder().encodeToString("-----BEGIN CERTIFICATE REQUEST-----".getBytes(StandardCharsets.UTF_8)))
                    .withUsages("digital signature", "client auth").endSpec()
                    .build()).create();

            CertificateSigningRequest approved = csrs.withName("node-a").approve(new CertificateSigningRequestConditionBuilder()
                    .withType("Approved").withStatus("True").withReason("AutoApproved").withMessage("ok").build());
            assertThat(approved.getStatus().getConditions()).singleElement()
                    .satisfies(c -> assertThat(c.getReason()).isEqualTo("AutoApproved"));

            CertificateSigningRequest stored = csrs.withName("node-a").get();
            assertThat(stored.getStatus().getConditions()).extracting(c -> c.getType()).containsExactly("Approved");
            // approval leaves the spec alone: the requester the server recorded at create stays
            assertThat(stored.getSpec().getUsername()).isEqualTo("kubernetes-admin");
            assertThat(csrs.list().getItems()).hasSize(1);

            stored.getStatus().setCertificate(Base64.getEncoder().encodeToString("cert".getBytes(StandardCharsets.UTF_8)));
            csrs.resource(stored).updateStatus();
            CertificateSigningRequest signed = csrs.withName("node-a").get();
            assertThat(signed.getStatus().getCertificate()).isNotEmpty();
            assertThat(signed.getStatus().getConditions()).extracting(c -> c.getType()).containsExactly("Approved");
        }
    }
}
