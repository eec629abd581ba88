package io.kovn.identity;

import static io.kovn.identity.testing.Writes.POD_NETWORKS;
import static io.kovn.identity.testing.Writes.annotation;
import static io.kovn.identity.testing.Writes.nodeStatus;
import static io.kovn.identity.testing.Writes.podNetworks;
import static io.kovn.identity.testing.Writes.podStatus;
import static io.kovn.identity.testing.Writes.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.bootstrap.NodeCertificateBootstrap;
import io.kovn.identity.bootstrap.NodeCredentials;
import io.kovn.identity.testing.Cluster;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The service as the sandbox runs it, on a real control plane: its approver lets kube-controller-manager sign a node's
 * certificate, and kube-apiserver calls its webhook on that node's status updates with the identity from the
 * certificate (subnets from the webhook's Node informer).
 */
@Tag("real")
class IdentityServiceTest {

    @Test
    void issuesNodeCertificatesAndJudgesThatNodesUpdates() throws Exception {
        try (Cluster cluster = Cluster.withIdentityService("node1", "node2")) {
            cluster.annotateNode("node1", "k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.1.0/24\"]}");
            cluster.annotateNode("node2", "k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.2.0/24\"]}");
            cluster.createPod("apps", "web1", "node1");
            cluster.createPod("apps", "web2", "node2");
            try (NodeCertificateBootstrap agent = new NodeCertificateBootstrap(
                    new NodeCertificateBootstrap.Settings(
                            "node1",
                            cluster.folder.resolve("node1"),
                            Duration.ofHours(1),
                            0.8,
                            Duration.ofSeconds(30),
                            Duration.ofMillis(100),
                            Duration.ofSeconds(1)),
                    cluster.hostConfig("node1"),
                    Clock.systemUTC())) {
                NodeCredentials credentials = agent.start();
                assertThat(credentials.certificate().getIssuerX500Principal())
                        .isEqualTo(cluster.clusterCa().getSubjectX500Principal());
                KubernetesClient node1 = agent.client();

                podStatus(node1, "apps", "web1", annotation(POD_NETWORKS, podNetworks("10.244.1.5/24")));
                assertThat(cluster.admin
                                .pods()
                                .inNamespace("apps")
                                .withName("web1")
                                .get()
                                .getMetadata()
                                .getAnnotations())
                        .containsEntry(POD_NETWORKS, podNetworks("10.244.1.5/24"));
                assertThat(refusal(() -> podStatus(
                                node1, "apps", "web1", annotation(POD_NETWORKS, podNetworks("10.244.2.5/24")))))
                        .contains("denied the request")
                        .contains("10.244.2.5 does not belong to node node1");
                assertThat(refusal(() -> podStatus(
                                node1, "apps", "web2", annotation(POD_NETWORKS, podNetworks("10.244.2.5/24")))))
                        .contains(
                                "node identity system:ovn-node:node1 is not allowed to modify pod web2 on node node2");

                nodeStatus(node1, "node1", annotation("k8s.ovn.org/node-encap-ips", "[\"172.18.0.3\"]"));
                assertThat(cluster.admin
                                .nodes()
                                .withName("node1")
                                .get()
                                .getMetadata()
                                .getAnnotations())
                        .containsEntry("k8s.ovn.org/node-encap-ips", "[\"172.18.0.3\"]");
                assertThat(refusal(() -> nodeStatus(
                                node1, "node1", annotation("k8s.ovn.org/trust-zones", "{\"__default\":[\"tz1\"]}"))))
                        .contains(
                                "not allowed to set the following annotations on node node1: [k8s.ovn.org/trust-zones]");
                assertThat(refusal(() -> nodeStatus(
                                node1, "node2", annotation("k8s.ovn.org/node-encap-ips", "[\"172.18.0.3\"]"))))
                        .contains("node identity system:ovn-node:node1 is not allowed to modify node node2");
            }
        }
    }

    // While the webhook is down, only node identities are refused: WebhookOutageTest.
}
