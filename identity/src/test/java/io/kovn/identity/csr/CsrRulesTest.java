package io.kovn.identity.csr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestConditionBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestStatus;
import io.kovn.pki.Subject;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CsrRulesTest {
    private static final TestCsrs GOOD = TestCsrs.good();

    static Stream<Arguments> approved() {
        return Stream.of(
                Arguments.of("kubelet requests its node identity", GOOD),
                Arguments.of(
                        "node identity renews itself",
                        GOOD.withUsername("system:ovn-node:node1")
                                .withGroups("system:ovn-nodes", "system:authenticated")),
                Arguments.of("usages in any order", GOOD.withUsages("client auth", "digital signature")),
                Arguments.of("no groups at all", GOOD.withGroups()),
                Arguments.of("exactly 365 days", GOOD.withExpiration(365 * 86400)),
                Arguments.of(
                        "dotted node name",
                        GOOD.withUsername("system:node:a.b-c")
                                .withSubject(Subject.of("system:ovn-node:a.b-c", "system:ovn-nodes"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("approved")
    void approves(String why, TestCsrs csr) {
        assertThat(decide(csr.build(), ApproverConfig.NONE)).isInstanceOf(CsrDecision.Approve.class);
    }

    static Stream<Arguments> denied() {
        return Stream.of(
                Arguments.of(
                        "CSR for another node's name",
                        GOOD.withSubject(Subject.of("system:ovn-node:node2", "system:ovn-nodes")),
                        "does not match the requesting node"),
                Arguments.of(
                        "server auth usage",
                        GOOD.withUsages("digital signature", "client auth", "server auth"),
                        "usages"),
                Arguments.of("only server auth", GOOD.withUsages("digital signature", "server auth"), "usages"),
                Arguments.of("missing digital signature", GOOD.withUsages("client auth"), "usages"),
                Arguments.of(
                        "duplicated usage",
                        GOOD.withUsages("client auth", "client auth", "digital signature"),
                        "usages"),
                Arguments.of("ten years", GOOD.withExpiration(10 * 365 * 86400), "exceeds the maximum"),
                Arguments.of("one second over a year", GOOD.withExpiration(365 * 86400 + 1), "exceeds the maximum"),
                Arguments.of("no expirationSeconds", GOOD.withExpiration(null), "expirationSeconds must be set"),
                Arguments.of(
                        "wrong organization",
                        GOOD.withSubject(Subject.of("system:ovn-node:node1", "system:masters")),
                        "organization"),
                Arguments.of(
                        "extra organization",
                        GOOD.withSubject(Subject.of("system:ovn-node:node1", "system:ovn-nodes", "system:masters")),
                        "organization"),
                Arguments.of("no organization", GOOD.withSubject(Subject.of("system:ovn-node:node1")), "organization"),
                Arguments.of("requester is not a node", GOOD.withUsername("alice"), "is not a node"),
                Arguments.of(
                        "service account requester",
                        GOOD.withUsername("system:serviceaccount:kube-system:x"),
                        "is not a node"),
                Arguments.of(
                        "group system:masters",
                        GOOD.withGroups("system:nodes", "system:masters"),
                        "group \"system:masters\""),
                Arguments.of(
                        "node name not DNS-1123",
                        GOOD.withUsername("system:node:Node_1")
                                .withSubject(Subject.of("system:ovn-node:Node_1", "system:ovn-nodes")),
                        "DNS-1123"),
                Arguments.of(
                        "empty node name",
                        GOOD.withUsername("system:node:")
                                .withSubject(Subject.of("system:ovn-node:", "system:ovn-nodes")),
                        "DNS-1123"),
                Arguments.of(
                        "CN prefix without node",
                        GOOD.withSubject(Subject.of("system:ovn-node", "system:ovn-nodes")),
                        "does not match"),
                Arguments.of(
                        "two CNs",
                        GOOD.withSubject(new Subject(
                                List.of("system:ovn-node:node1", "system:ovn-node:node2"),
                                List.of("system:ovn-nodes"))),
                        "does not match"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("denied")
    void denies(String why, TestCsrs csr, String message) {
        assertThat(decide(csr.build(), ApproverConfig.NONE))
                .isInstanceOfSatisfying(
                        CsrDecision.Deny.class, d -> assertThat(d.message()).contains(message));
    }

    static Stream<Arguments> ignored() {
        return Stream.of(
                Arguments.of("another signer", GOOD.withSigner("kubernetes.io/kubelet-serving")),
                Arguments.of(
                        "kubelet's own client CSR", GOOD.withSigner("kubernetes.io/kube-apiserver-client-kubelet")),
                Arguments.of(
                        "someone else's client certificate",
                        GOOD.withUsername("alice").withSubject(Subject.of("alice", "devs"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ignored")
    void ignores(String why, TestCsrs csr) {
        assertThat(decide(csr.build(), ApproverConfig.NONE)).isInstanceOf(CsrDecision.Ignore.class);
    }

    @ParameterizedTest(name = "already {0}")
    @MethodSource("conditionTypes")
    void skipsDecidedRequests(String type) {
        CertificateSigningRequest csr = GOOD.build();
        csr.setStatus(new CertificateSigningRequestStatus());
        csr.getStatus()
                .setConditions(List.of(new CertificateSigningRequestConditionBuilder()
                        .withType(type)
                        .withStatus("True")
                        .build()));
        assertThat(decide(csr, ApproverConfig.NONE)).isInstanceOf(CsrDecision.Ignore.class);
    }

    static Stream<String> conditionTypes() {
        return Stream.of("Approved", "Denied", "Failed");
    }

    @Test
    void skipsIssuedRequests() {
        CertificateSigningRequest csr = GOOD.build();
        csr.setStatus(new CertificateSigningRequestStatus());
        csr.getStatus().setCertificate("Y2VydA==");
        assertThat(decide(csr, ApproverConfig.NONE)).isInstanceOf(CsrDecision.Ignore.class);
    }

    @Test
    void deniesAnUnreadableRequestFromANodeIdentity() {
        CertificateSigningRequest csr =
                GOOD.withUsername("system:ovn-node:node1").build();
        csr.getSpec().setRequest("bm90IGEgcmVxdWVzdA==");
        assertThat(decide(csr, ApproverConfig.NONE))
                .isInstanceOfSatisfying(
                        CsrDecision.Deny.class, d -> assertThat(d.message()).contains("cannot be read"));
    }

    @Test
    void configNarrowsExpirationNodeNamesAndRequesters() {
        ApproverConfig config = ApproverConfig.parse("""
        maxExpirationSeconds: 3600
        nodeNamePattern: "node[0-9]+"
        requesterPrefixes: [system:ovn-node]
        """);
        TestCsrs renewal = GOOD.withUsername("system:ovn-node:node1").withExpiration(3600);
        assertThat(decide(renewal.build(), config)).isInstanceOf(CsrDecision.Approve.class);
        assertThat(decide(renewal.withExpiration(3601).build(), config)).isInstanceOf(CsrDecision.Deny.class);
        assertThat(decide(GOOD.withExpiration(3600).build(), config))
                .isInstanceOfSatisfying(
                        CsrDecision.Deny.class, d -> assertThat(d.message()).contains("is not a node"));
        TestCsrs otherName = renewal.withUsername("system:ovn-node:gpu-1")
                .withSubject(Subject.of("system:ovn-node:gpu-1", "system:ovn-nodes"));
        assertThat(decide(otherName.build(), config))
                .isInstanceOfSatisfying(
                        CsrDecision.Deny.class, d -> assertThat(d.message()).contains("configured pattern"));
    }

    @Test
    void configRejectsUnknownKeysAndBadValues() {
        assertThatThrownBy(() -> ApproverConfig.parse("maxExpiration: 5")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ApproverConfig.parse("nodeNamePattern: '('"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ApproverConfig.parse("requesterPrefixes: [alice]"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ApproverConfig.parse("")).isEqualTo(ApproverConfig.NONE);
    }

    private static CsrDecision decide(CertificateSigningRequest csr, ApproverConfig config) {
        return CsrRules.decide(CsrFacts.from(csr), config);
    }
}
