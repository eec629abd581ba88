package io.kovn.identity.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.csr.CsrApprover;
import io.kovn.identity.csr.TestCsrs;
import io.kovn.identity.testing.Cluster;
import io.kovn.identity.testing.Writes;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.AuditLog;
import io.kovn.pki.Subject;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Bootstrap and approver on a real control plane: the node asks with its kubelet's certificate, kovn's approver
 * approves or denies, kube-controller-manager signs with the cluster CA, kube-apiserver takes the node for who its
 * certificate says (its audit log names the certificate by fingerprint).
 */
@Tag("real")
class NodeCertificateEndToEndTest {

    @Test
    void nodeGetsItsOwnCertificateAndReusesItAfterRestart() throws Exception {
        try (Cluster cluster = Cluster.withApprover("node1")) {
            var settings = new NodeCertificateBootstrap.Settings(
                    "node1",
                    cluster.folder.resolve("node1"),
                    Duration.ofHours(1),
                    0.8,
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    Duration.ofSeconds(1));
            BigInteger firstSerial;
            try (NodeCertificateBootstrap agent =
                    new NodeCertificateBootstrap(settings, cluster.hostConfig("node1"), Clock.systemUTC())) {
                NodeCredentials credentials = agent.start();
                assertThat(credentials.subject()).isEqualTo(Subject.of("system:ovn-node:node1", "system:ovn-nodes"));
                assertSignedByTheClusterCa(cluster, credentials.certificate());
                // kube-controller-manager back-dates by 5 minutes and honours expirationSeconds
                assertThat(Duration.between(credentials.notBefore(), credentials.notAfter()))
                        .isBetween(Duration.ofMinutes(64), Duration.ofMinutes(66));
                assertThat(PosixFilePermissions.toString(
                                Files.getPosixFilePermissions(new CertificateStore(settings.directory()).keyFile())))
                        .isEqualTo("rw-------");
                firstSerial = credentials.certificate().getSerialNumber();

                CertificateSigningRequest csr = cluster.admin
                        .certificates()
                        .v1()
                        .certificateSigningRequests()
                        .list()
                        .getItems()
                        .getFirst();
                assertThat(csr.getSpec().getUsername()).isEqualTo("system:node:node1");
                assertThat(csr.getStatus().getConditions()).singleElement().satisfies(c -> {
                    assertThat(c.getType()).isEqualTo("Approved");
                    assertThat(c.getReason()).isEqualTo(CsrApprover.REASON_APPROVED);
                });
                assertThat(events(cluster))
                        .anySatisfy(e -> assertThat(e.getReason()).isEqualTo(CsrApprover.REASON_APPROVED));

                // The agent talks to the API as its node identity, with the certificate it was issued.
                assertThat(agent.client()
                                .nodes()
                                .withName("node1")
                                .get()
                                .getMetadata()
                                .getName())
                        .isEqualTo("node1");
                String fingerprint = Cluster.fingerprint(credentials.certificate());
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(cluster.audit()).anySatisfy(e -> {
                            assertThat(e.withCertificate(fingerprint)).isTrue();
                            assertThat(List.of(e.user(), e.verb(), e.resource(), e.name(), e.code()))
                                    .containsExactly("system:ovn-node:node1", "get", "nodes", "node1", 200);
                        }));
            }
            try (NodeCertificateBootstrap restarted =
                    new NodeCertificateBootstrap(settings, cluster.hostConfig("node1"), Clock.systemUTC())) {
                assertThat(restarted.start().certificate().getSerialNumber()).isEqualTo(firstSerial);
                assertThat(cluster.admin
                                .certificates()
                                .v1()
                                .certificateSigningRequests()
                                .list()
                                .getItems())
                        .hasSize(1);
            }
        }
    }

    @Test
    void rotatesWithTheClusterSignerWhileTheAgentKeepsWorking() throws Exception {
        try (Cluster cluster = Cluster.withApprover("node1")) {
            // kube's shortest lifetime, 600 s, signed 5 minutes back-dated: 15 minutes from notBefore. At 34%
            // of it the agent renews about 6 s after each issue.
            var settings = new NodeCertificateBootstrap.Settings(
                    "node1",
                    cluster.folder.resolve("node1"),
                    Duration.ofSeconds(600),
                    0.34,
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    Duration.ofSeconds(2));
            try (NodeCertificateBootstrap agent =
                    new NodeCertificateBootstrap(settings, cluster.hostConfig("node1"), Clock.systemUTC())) {
                List<NodeCredentials> rotations = new CopyOnWriteArrayList<>();
                agent.onRotation(rotations::add);
                NodeCredentials first = agent.start();
                List<Throwable> failures = new CopyOnWriteArrayList<>();
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> {
                            try {
                                agent.client().nodes().withName("node1").get(); // the agent's ordinary work
                            } catch (RuntimeException e) {
                                failures.add(e);
                            }
                            return rotations.size() >= 2;
                        });
                agent.client().nodes().withName("node1").get();
                assertThat(failures).isEmpty();
                for (NodeCredentials rotated : rotations) {
                    assertSignedByTheClusterCa(cluster, rotated.certificate());
                    assertThat(rotated.certificate().getSerialNumber())
                            .isNotEqualTo(first.certificate().getSerialNumber());
                }
                String newest = Cluster.fingerprint(agent.current().certificate());
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                    List<AuditLog.Entry> byNode = cluster.audit().stream()
                            .filter(e -> e.user().equals("system:ovn-node:node1"))
                            .toList();
                    for (NodeCredentials used : List.of(first, rotations.get(0), rotations.get(1))) {
                        assertThat(byNode)
                                .as("requests with %s", used.certificate().getSerialNumber())
                                .anyMatch(e -> e.withCertificate(Cluster.fingerprint(used.certificate()))
                                        && e.resource().equals("nodes"));
                    }
                    assertThat(byNode.getLast().credentialId()).isEqualToIgnoringCase("X509SHA256=" + newest);
                    assertThat(byNode).noneMatch(e -> e.code() == 401 || e.code() == 403);
                });
                // Renewals were requested by the node identity itself, not with the kubelet's certificate.
                assertThat(cluster.admin
                                .certificates()
                                .v1()
                                .certificateSigningRequests()
                                .list()
                                .getItems())
                        .extracting(c -> c.getSpec().getUsername())
                        .containsExactlyInAnyOrder(
                                "system:node:node1", "system:ovn-node:node1", "system:ovn-node:node1");
            }
        }
    }

    @Test
    void approverDeniesAttacksWithAReasonAndAnEventAndNothingIsSigned() throws Exception {
        try (Cluster cluster = Cluster.withApprover("node1");
                KubernetesClient host = KubeClients.forConfig(cluster.hostConfig("node1"))) {
            TestCsrs good = TestCsrs.good().withExpiration(600);
            // made with node1's kubelet certificate: kube-apiserver records system:node:node1 as the requester
            var csrs = host.certificates().v1().certificateSigningRequests();
            csrs.resource(good.withName("other-node")
                            .withSubject(Subject.of("system:ovn-node:node2", "system:ovn-nodes"))
                            .build())
                    .create();
            csrs.resource(good.withName("kubelet-group")
                            .withSubject(Subject.of("system:ovn-node:node1", "system:nodes"))
                            .build())
                    .create();
            csrs.resource(good.withName("server-auth")
                            .withUsages("digital signature", "client auth", "server auth")
                            .build())
                    .create();
            csrs.resource(good.withName("ten-years")
                            .withExpiration(10 * 365 * 86400)
                            .build())
                    .create();
            csrs.resource(good.withName("fine").build()).create();
            // not the approver's (another signer; not a node identity's CN): left pending for other approvers
            var all = cluster.admin.certificates().v1().certificateSigningRequests();
            all.resource(good.withName("kubelet-serving")
                            .withSigner("kubernetes.io/kubelet-serving")
                            .build())
                    .create();
            all.resource(good.withName("someone-else")
                            .withSubject(Subject.of("jane", "developers"))
                            .build())
                    .create();
            var denials = Map.of(
                    "other-node",
                            "CN [system:ovn-node:node2] does not match the requesting node: expected \"system:ovn-node:node1\"",
                    "kubelet-group", "organization [system:nodes] must be exactly [system:ovn-nodes]",
                    "server-auth", "must be exactly [digital signature, client auth]",
                    "ten-years", "expirationSeconds 315360000 exceeds the maximum of 31536000");
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() -> {
                for (var denial : denials.entrySet()) {
                    assertThat(csrs.withName(denial.getKey()).get().getStatus().getConditions())
                            .as(denial.getKey())
                            .singleElement()
                            .satisfies(c -> {
                                assertThat(c.getType()).isEqualTo("Denied");
                                assertThat(c.getReason()).isEqualTo(CsrApprover.REASON_DENIED);
                                assertThat(c.getMessage()).contains(denial.getValue());
                            });
                }
                assertThat(csrs.withName("fine").get().getStatus().getCertificate())
                        .isNotEmpty();
                assertThat(events(cluster))
                        .filteredOn(e -> e.getReason().equals(CsrApprover.REASON_DENIED))
                        .extracting(e -> e.getInvolvedObject().getName())
                        .containsExactlyInAnyOrderElementsOf(denials.keySet());
            });
            // kube-controller-manager signs approved requests only
            for (String denied : denials.keySet()) {
                assertThat(csrs.withName(denied).get().getStatus().getCertificate())
                        .as(denied)
                        .isNullOrEmpty();
            }
            // A certificate for system:masters is not even asked for: kube-apiserver refuses the CSR itself.
            assertThat(Writes.refusal(() -> csrs.resource(good.withName("masters")
                                    .withSubject(
                                            Subject.of("system:ovn-node:node1", "system:ovn-nodes", "system:masters"))
                                    .build())
                            .create()))
                    .startsWith("403")
                    .contains(
                            "use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed");
            for (String other : List.of("kubelet-serving", "someone-else")) {
                CertificateSigningRequest untouched = all.withName(other).get();
                assertThat(untouched.getStatus() == null
                                || untouched.getStatus().getConditions() == null
                                || untouched.getStatus().getConditions().isEmpty())
                        .as(other)
                        .isTrue();
            }
        }
    }

    static void assertSignedByTheClusterCa(Cluster cluster, X509Certificate certificate) throws Exception {
        X509Certificate ca = cluster.clusterCa();
        assertThat(certificate.getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
        certificate.verify(ca.getPublicKey()); // throws when another key signed it
    }

    private static List<Event> events(Cluster cluster) {
        return cluster.admin
                .v1()
                .events()
                .inNamespace(CsrApprover.EVENT_NAMESPACE)
                .list()
                .getItems();
    }
}
