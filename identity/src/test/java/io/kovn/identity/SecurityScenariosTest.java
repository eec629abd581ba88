package io.kovn.identity;

import static io.kovn.identity.testing.Writes.POD_NETWORKS;
import static io.kovn.identity.testing.Writes.annotation;
import static io.kovn.identity.testing.Writes.label;
import static io.kovn.identity.testing.Writes.node;
import static io.kovn.identity.testing.Writes.nodeStatus;
import static io.kovn.identity.testing.Writes.pod;
import static io.kovn.identity.testing.Writes.podNetworks;
import static io.kovn.identity.testing.Writes.podStatus;
import static io.kovn.identity.testing.Writes.refusal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.bootstrap.NodeCertificateBootstrap;
import io.kovn.identity.testing.Cluster;
import io.kovn.pki.Subject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The attacks of RELIABILITY.md's "Security scenarios" made with real node credentials: node n1's agent bootstraps as
 * it does on a node (its kubelet's certificate, a CSR approved by kovn's approver, signed by kube-controller-manager
 * with the cluster CA) and then, with that certificate, tries what a compromised node would against the real
 * kube-apiserver with {@code deploy/}'s RBAC and the identity webhook registered. Each refusal is checked by its
 * message, and the object by what is stored. {@code NodeIdentityWritesTest} covers more writes with a certificate made
 * directly by the cluster CA; this class shows the CSR-issued one gets no further.
 */
@Tag("real")
class SecurityScenariosTest {
    static final String NODE_DENIED = "admission webhook \"node.identity.kovn.io\" denied the request: ";
    static final String POD_DENIED = "admission webhook \"pod.identity.kovn.io\" denied the request: ";
    static final String TRUST_ZONES = "k8s.ovn.org/trust-zones";

    static Cluster cluster;
    static NodeCertificateBootstrap agent;
    static KubernetesClient n1;

    @BeforeAll
    static void up() throws Exception {
        cluster = Cluster.withIdentityService("n1", "n2");
        cluster.annotateNode("n1", "k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.1.0/24\"]}");
        cluster.annotateNode("n2", "k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.2.0/24\"]}");
        cluster.createPod("apps", "p1", "n1");
        cluster.createPod("apps", "p2", "n2");
        agent = new NodeCertificateBootstrap(
                new NodeCertificateBootstrap.Settings(
                        "n1",
                        cluster.folder.resolve("n1"),
                        Duration.ofHours(1),
                        0.8,
                        Duration.ofSeconds(30),
                        Duration.ofMillis(100),
                        Duration.ofSeconds(1)),
                cluster.hostConfig("n1"),
                Clock.systemUTC());
        assertThat(agent.start().subject()).isEqualTo(Subject.of("system:ovn-node:n1", "system:ovn-nodes"));
        n1 = agent.client();
    }

    @AfterAll
    static void down() throws Exception {
        if (agent != null) {
            agent.close();
        }
        cluster.close();
    }

    @Test
    void theCertificateCameThroughTheCsrFlow() {
        assertThat(cluster.admin
                        .certificates()
                        .v1()
                        .certificateSigningRequests()
                        .list()
                        .getItems())
                .anySatisfy(csr -> {
                    assertThat(csr.getSpec().getUsername()).isEqualTo("system:node:n1");
                    assertThat(csr.getStatus().getCertificate()).isNotEmpty();
                });
        assertThat(n1.nodes().withName("n1").get().getMetadata().getName()).isEqualTo("n1");
    }

    @Test
    void impersonatingAnotherNodeIsRefused() {
        String encap = annotation("k8s.ovn.org/node-encap-ips", "[\"172.18.0.66\"]");
        assertThat(refusal(() -> nodeStatus(n1, "n2", encap)))
                .contains(NODE_DENIED + "node identity system:ovn-node:n1 is not allowed to modify node n2");
        assertThat(refusal(() -> node(n1, "n2", encap)))
                .startsWith("403")
                .contains("User \"system:ovn-node:n1\" cannot patch resource \"nodes\"");
        assertThat(annotations("n2")).doesNotContainKey("k8s.ovn.org/node-encap-ips");
    }

    @Test
    void trustZonesCannotBeSet() {
        String set = annotation(TRUST_ZONES, "{\"__default\":[\"tz1\"]}");
        assertThat(refusal(() -> nodeStatus(n1, "n1", set)))
                .contains(NODE_DENIED + "node identity system:ovn-node:n1 is not allowed to set the following "
                        + "annotations on node n1: [" + TRUST_ZONES + "]");
        assertThat(refusal(() -> node(n1, "n1", set))).startsWith("403");
        assertThat(annotations("n1")).doesNotContainKey(TRUST_ZONES);
    }

    @Test
    void podNetworksOutsideTheNodesSubnetAreRefused() {
        assertThat(refusal(() -> podStatus(n1, "apps", "p1", annotation(POD_NETWORKS, podNetworks("10.244.2.7/24")))))
                .contains(POD_DENIED + "user system:ovn-node:n1 is not allowed to set " + POD_NETWORKS
                        + " on pod p1: 10.244.2.7 does not belong to node n1 (subnets [10.244.1.0/24])");
        assertThat(refusal(() -> podStatus(n1, "apps", "p2", annotation(POD_NETWORKS, podNetworks("10.244.2.7/24")))))
                .contains(POD_DENIED + "node identity system:ovn-node:n1 is not allowed to modify pod p2 on node n2");
        assertThat(podAnnotations("p1")).doesNotContainKey(POD_NETWORKS);
        assertThat(podAnnotations("p2")).doesNotContainKey(POD_NETWORKS);
    }

    @Test
    void anotherNodesPodsCannotBeRelabelled() {
        String relabel = label("app", "p1"); // would put p2 behind p1's policies and services
        assertThat(refusal(() -> pod(n1, "apps", "p2", relabel)))
                .startsWith("403")
                .contains("User \"system:ovn-node:n1\" cannot patch resource \"pods\" in API group \"\" in the "
                        + "namespace \"apps\"");
        assertThat(refusal(() -> podStatus(n1, "apps", "p2", relabel)))
                .contains(POD_DENIED + "node identity system:ovn-node:n1 is not allowed to modify pod p2 on node n2");
        // its own pods neither: labels are not the node agent's to write
        assertThat(refusal(() -> podStatus(n1, "apps", "p1", label("app", "p2"))))
                .contains(POD_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to modify anything other than annotations");
        assertThat(cluster.admin
                        .pods()
                        .inNamespace("apps")
                        .withName("p2")
                        .get()
                        .getMetadata()
                        .getLabels())
                .isEqualTo(Map.of("app", "p2"));
        assertThat(cluster.admin
                        .pods()
                        .inNamespace("apps")
                        .withName("p1")
                        .get()
                        .getMetadata()
                        .getLabels())
                .isEqualTo(Map.of("app", "p1"));
    }

    @Test
    void theWebhookSpeaksTlsOnlyAndItsKeyIsOwnerOnly() throws Exception {
        URI https = cluster.identity.webhookUri();
        URI plain = URI.create("http://" + https.getHost() + ":" + https.getPort() + "/healthz");
        try (HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            assertThatThrownBy(() -> http.send(
                            HttpRequest.newBuilder(plain)
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
        }
        Path folder = cluster.folder.resolve("identity");
        assertThat(mode(folder)).isEqualTo("rwx------");
        assertThat(mode(folder.resolve("webhook-tls.key"))).isEqualTo("rw-------");
        assertThat(mode(folder.resolve("webhook-ca"))).isEqualTo("rwx------");
        assertThat(mode(folder.resolve("webhook-ca/ca.key"))).isEqualTo("rw-------");
        assertThat(mode(cluster.folder.resolve("n1"))).isEqualTo("rwx------");
        assertThat(mode(cluster.folder.resolve("n1/ovn-node.key"))).isEqualTo("rw-------");
    }

    private static Map<String, String> annotations(String node) {
        Map<String, String> a =
                cluster.admin.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    private static Map<String, String> podAnnotations(String pod) {
        Map<String, String> a = cluster.admin
                .pods()
                .inNamespace("apps")
                .withName(pod)
                .get()
                .getMetadata()
                .getAnnotations();
        return a == null ? Map.of() : a;
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
