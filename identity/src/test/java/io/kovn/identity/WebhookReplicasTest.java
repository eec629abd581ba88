package io.kovn.identity;

import static io.kovn.identity.testing.Writes.annotation;
import static io.kovn.identity.testing.Writes.nodeStatus;
import static io.kovn.identity.testing.Writes.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kovn.identity.testing.Cluster;
import io.kovn.identity.testing.ServiceProxy;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.SecureFiles;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two webhook replicas behind one Service, as the Helm chart runs them (identity.replicas: 2), called by the real
 * kube-apiserver: both serve, and when one is gone node identities' status writes still get their verdicts from the
 * other — allowed writes go through, forbidden ones are still denied. The Service is {@link ServiceProxy} (no
 * kube-proxy here): random endpoint per connection, a gone replica no longer chosen, which is what a Service does once
 * the replica's pod is out of its endpoints (until then, on a cluster, calls that reach the gone pod fail and, with
 * failurePolicy Fail, the node agent's write is refused and retried).
 */
@Tag("real")
class WebhookReplicasTest {
    static final String ENCAP = "k8s.ovn.org/node-encap-ips";

    @Test
    void nodeWritesGetVerdictsWhileOneOfTwoReplicasIsGone() throws Exception {
        try (Cluster cluster = Cluster.withApprover("n1", "n2")) {
            // One serving certificate for both replicas: the chart mounts one Secret into every pod.
            CertificateAuthority ca = CertificateAuthority.create("kovn-identity-ca");
            KeyPair pair = Keys.ecP256();
            Path tls = SecureFiles.createPrivateDirectories(cluster.folder.resolve("tls"));
            SecureFiles.writePrivate(tls.resolve("tls.key"), Pem.encode(pair.getPrivate()));
            SecureFiles.writeAtomically(
                    tls.resolve("tls.crt"),
                    Pem.encode(ca.issueServer(
                            "kovn-identity", pair.getPublic(), Duration.ofDays(1), List.of("127.0.0.1"))));
            IdentityService first = replica(cluster, tls);
            try (IdentityService second = replica(cluster, tls);
                    ServiceProxy service = ServiceProxy.start(List.of(address(first), address(second)));
                    KubernetesClient n1 = cluster.nodeIdentity("n1")) {
                cluster.admin
                        .resource(DeployManifests.webhookAt(
                                Cluster.DEPLOY, URI.create("https://127.0.0.1:" + service.port()), ca.certificate()))
                        .fieldManager("kovn-test")
                        .forceConflicts()
                        .serverSideApply();
                awaitWebhookInForce(n1);

                for (int i = 0; i < 20; i++) {
                    nodeStatus(n1, "n1", annotation(ENCAP, "[\"172.18.0." + i + "\"]"));
                }
                // kube-apiserver keeps its connection to the Service alive, so one replica has served: stop that one
                InetSocketAddress gone = address(first);
                InetSocketAddress other = address(second);
                assertThat(service.connectionsTo(gone) + service.connectionsTo(other))
                        .isPositive();
                IdentityService stopped = first;
                if (service.connectionsTo(other) > service.connectionsTo(gone)) {
                    stopped = second;
                    gone = address(second);
                    other = address(first);
                }
                int toGone = service.connectionsTo(gone);
                int toOther = service.connectionsTo(other);
                stopped.close();
                Thread.sleep(500); // kube-apiserver notices its idle connections to the gone replica closed
                for (int i = 20; i < 40; i++) {
                    nodeStatus(n1, "n1", annotation(ENCAP, "[\"172.18.0." + i + "\"]"));
                }
                assertThat(cluster.admin
                                .nodes()
                                .withName("n1")
                                .get()
                                .getMetadata()
                                .getAnnotations())
                        .containsEntry(ENCAP, "[\"172.18.0.39\"]");
                assertThat(refusal(() -> nodeStatus(n1, "n2", annotation(ENCAP, "[\"172.18.0.66\"]"))))
                        .contains("admission webhook \"node.identity.kovn.io\" denied the request: "
                                + "node identity system:ovn-node:n1 is not allowed to modify node n2");
                assertThat(service.connectionsTo(gone)).isEqualTo(toGone);
                assertThat(service.connectionsTo(other)).isGreaterThan(toOther);
            } finally {
                first.close();
                cluster.admin
                        .admissionRegistration()
                        .v1()
                        .validatingWebhookConfigurations()
                        .withName("kovn-identity")
                        .delete();
            }
        }
    }

    /** A webhook-only replica (the Cluster's approver plays the approver) on a free loopback port. */
    private static IdentityService replica(Cluster cluster, Path tls) throws Exception {
        IdentityService.Options options = new IdentityService.Options();
        options.webhookHost = "127.0.0.1";
        options.webhookPort = 0;
        options.tlsCertFile = tls.resolve("tls.crt");
        options.tlsKeyFile = tls.resolve("tls.key");
        options.enableInterconnect = true;
        options.disableApprover = true;
        return IdentityService.start(options, cluster.identityAccount);
    }

    private static InetSocketAddress address(IdentityService replica) {
        return replica.webhookAddress().orElseThrow();
    }

    /** kube-apiserver picks a new registration up from a watch: wait until it denies n1 a write to n2. */
    private static void awaitWebhookInForce(KubernetesClient n1) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                nodeStatus(n1, "n2", "{}");
            } catch (KubernetesClientException e) {
                if (e.getMessage().contains("denied the request")) {
                    return;
                }
                throw e;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("kube-apiserver did not call the webhook within 30 s of its registration");
            }
            Thread.sleep(100);
        }
    }
}
