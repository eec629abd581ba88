package io.kovn.identity.csr;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.kovn.pki.CertificateRequests;
import io.kovn.pki.Keys;
import io.kovn.pki.Subject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/** Builds CSR objects the way kube-apiserver stores them (username and groups filled in). */
public record TestCsrs(
        String name,
        String signer,
        String username,
        List<String> groups,
        List<String> usages,
        Integer expirationSeconds,
        Subject subject) {

    /** A CSR every check approves: node1 asking for its own identity for one day. */
    public static TestCsrs good() {
        return new TestCsrs(
                "csr-node1",
                "kubernetes.io/kube-apiserver-client",
                "system:node:node1",
                List.of("system:nodes", "system:authenticated"),
                List.of("digital signature", "client auth"),
                86400,
                Subject.of("system:ovn-node:node1", "system:ovn-nodes"));
    }

    public TestCsrs withSigner(String value) {
        return new TestCsrs(name, value, username, groups, usages, expirationSeconds, subject);
    }

    public TestCsrs withUsername(String value) {
        return new TestCsrs(name, signer, value, groups, usages, expirationSeconds, subject);
    }

    public TestCsrs withGroups(String... value) {
        return new TestCsrs(name, signer, username, List.of(value), usages, expirationSeconds, subject);
    }

    public TestCsrs withUsages(String... value) {
        return new TestCsrs(name, signer, username, groups, List.of(value), expirationSeconds, subject);
    }

    public TestCsrs withExpiration(Integer value) {
        return new TestCsrs(name, signer, username, groups, usages, value, subject);
    }

    public TestCsrs withSubject(Subject value) {
        return new TestCsrs(name, signer, username, groups, usages, expirationSeconds, value);
    }

    public TestCsrs withName(String value) {
        return new TestCsrs(value, signer, username, groups, usages, expirationSeconds, subject);
    }

    public CertificateSigningRequest build() {
        String pem = CertificateRequests.create(subject, Keys.ecP256());
        return new CertificateSigningRequestBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withSignerName(signer)
                .withUsername(username)
                .withGroups(groups)
                .withUsages(usages)
                .withExpirationSeconds(expirationSeconds)
                .withRequest(Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII)))
                .endSpec()
                .build();
    }
}
