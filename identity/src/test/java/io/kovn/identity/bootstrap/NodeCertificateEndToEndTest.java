package io.kovn.identity.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.kovn.identity.csr.CsrApprover;
import io.kovn.identity.csr.TestCsrs;
import io.kovn.pki.Subject;
import io.kovn.identity.testing.Cluster;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Bootstrap, approver and sandbox signer together against the API stand-in. */
class NodeCertificateEndToEndTest {

    @Test
    void nodeGetsItsOwnCertificateAndReusesItAfterRestart() throws Exception {
        try (Cluster cluster = new Cluster("node1")) {
            var settings = NodeCertificateBootstrap.Settings.of("node1", cluster.folder.resolve("node1"), Duration.ofHours(1));
            settings = new NodeCertificateBootstrap.Settings(settings.nodeName(), settings.directory(), settings.expiration(), 0.8,
                    Duration.ofSeconds(20), Duration.ofMillis(100), Duration.ofSeconds(1));
            BigInteger firstSerial;
            try (NodeCertificateBootstrap agent = new NodeCertificateBootstrap(settings, cluster.bootstrapConfig("node1"), Clock.systemUTC())) {
                NodeCredentials credentials = agent.start();
                assertThat(credentials.subject()).isEqualTo(Subject.of("system:ovn-node:node1", "system:ovn-nodes"));
                assertThat(Duration.between(credentials.notBefore(), credentials.notAfter())).isBetween(Duration.ofMinutes(60), Duration.ofMinutes(66));
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(new CertificateStore(settings.directory()).keyFile())))
                        .isEqualTo("rw-------");
                firstSerial = credentials.certificate().getSerialNumber();

                CertificateSigningRequest csr = cluster.admin.certificates().v1().certificateSigningRequests().list().getItems().getFirst();
                assertThat(csr.getSpec().getUsername()).isEqualTo("system:node:node1");
                assertThat(csr.getStatus().getConditions()).singleElement()
                        .satisfies(c -> assertThat(c.getReason()).isEqualTo(CsrApprover.REASON_APPROVED));
                assertThat(events(cluster)).anySatisfy(e -> assertThat(e.getReason()).isEqualTo(CsrApprover.REASON_APPROVED));

                // The agent talks to the API as its node identity, not as the host.
                assertThat(agent.client().nodes().withName("node1").get().getMetadata().getName()).isEqualTo("node1");
                assertThat(cluster.seen().getLast().by("system:ovn-node:node1", firstSerial)).isTrue();
            }
            try (NodeCertificateBootstrap restarted = new NodeCertificateBootstrap(settings, cluster.bootstrapConfig("node1"), Clock.systemUTC())) {
                assertThat(restarted.start().certificate().getSerialNumber()).isEqualTo(firstSerial);
                assertThat(cluster.admin.certificates().v1().certificateSigningRequests().list().getItems()).hasSize(1);
            }
        }
    }

    @Test
    void rotatesTwiceWhileTheAgentKeepsWorking() throws Exception {
        try (Cluster cluster = new Cluster("node1")) {
            // 10 s certificates (signer back-dates 1 s): rotations about 7.8 s and 15.6 s in.
            var settings = new NodeCertificateBootstrap.Settings("node1", cluster.folder.resolve("node1"), Duration.ofSeconds(10), 0.8,
                    Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofSeconds(2));
            try (NodeCertificateBootstrap agent = new NodeCertificateBootstrap(settings, cluster.bootstrapConfig("node1"), Clock.systemUTC())) {
                List<NodeCredentials> rotations = new java.util.concurrent.CopyOnWriteArrayList<>();
                agent.onRotation(rotations::add);
                BigInteger first = agent.start().certificate().getSerialNumber();
                List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    try {
                        agent.client().nodes().withName("node1").get(); // the agent's ordinary work
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                    return rotations.size() >= 2;
                });
                agent.client().nodes().withName("node1").get();
                assertThat(failures).isEmpty();
                Set<BigInteger> served = cluster.seen().stream()
                        .filter(s -> s.identity().filter(i -> i.user().equals("system:ovn-node:node1")).isPresent())
                        .flatMap(s -> s.certificateSerial().stream()).collect(Collectors.toSet());
                assertThat(served).contains(first, rotations.get(0).certificate().getSerialNumber(), rotations.get(1).certificate().getSerialNumber());
                assertThat(cluster.seen().getLast().certificateSerial()).contains(agent.current().certificate().getSerialNumber());
                assertThat(cluster.seen()).noneMatch(s -> s.status() == 401 || s.status() == 403);
                // Renewals were requested by the node identity itself, not with the host's token.
                assertThat(cluster.admin.certificates().v1().certificateSigningRequests().list().getItems())
                        .extracting(c -> c.getSpec().getUsername())
                        .contains("system:node:node1", "system:ovn-node:node1");
            }
        }
    }

    @Test
    void approverDeniesAttacksThroughTheApprovalSubresourceWithAnEvent() throws Exception {
        try (Cluster cluster = new Cluster("node1");
                var host = io.kovn.k8s.client.KubeClients.forConfig(cluster.bootstrapConfig("node1"))) {
            TestCsrs good = TestCsrs.good();
            // made with node1's host credentials: the API server records system:node:node1 as the requester
            var csrs = host.certificates().v1().certificateSigningRequests();
            csrs.resource(good.withName("other-node").withSubject(Subject.of("system:ovn-node:node2", "system:ovn-nodes")).build()).create();
            csrs.resource(good.withName("server-auth").withUsages("digital signature", "client auth", "server auth").build()).create();
            csrs.resource(good.withName("ten-years").withExpiration(10 * 365 * 86400).build()).create();
            csrs.resource(good.withName("fine").build()).create();
            csrs.resource(good.withName("kubelet-serving").withSigner("kubernetes.io/kubelet-serving").build()).create();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> {
                for (String name : List.of("other-node", "server-auth", "ten-years")) {
                    assertThat(csrs.withName(name).get().getStatus().getConditions()).singleElement().satisfies(c -> {
                        assertThat(c.getType()).isEqualTo("Denied");
                        assertThat(c.getReason()).isEqualTo(CsrApprover.REASON_DENIED);
                    });
                    assertThat(csrs.withName(name).get().getStatus().getCertificate()).isNull();
                }
                assertThat(csrs.withName("fine").get().getStatus().getCertificate()).isNotEmpty();
                assertThat(events(cluster)).filteredOn(e -> e.getReason().equals(CsrApprover.REASON_DENIED))
                        .extracting(e -> e.getInvolvedObject().getName()).containsExactlyInAnyOrder("other-node", "server-auth", "ten-years");
            });
            CertificateSigningRequest untouched = csrs.withName("kubelet-serving").get();
            assertThat(untouched.getStatus() == null || untouched.getStatus().getConditions() == null
                    || untouched.getStatus().getConditions().isEmpty()).isTrue();
        }
    }

    private static List<Event> events(Cluster cluster) {
        return cluster.admin.v1().events().inNamespace(CsrApprover.EVENT_NAMESPACE).list().getItems();
    }
}
