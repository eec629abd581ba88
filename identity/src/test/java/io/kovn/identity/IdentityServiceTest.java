package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kovn.identity.bootstrap.NodeCertificateBootstrap;
import io.kovn.identity.bootstrap.NodeCredentials;
import io.kovn.identity.testing.Cluster;
import io.kovn.identity.webhook.AdmissionDecision;
import io.kovn.identity.webhook.WebhookCaller;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The service as the sandbox runs it: its signer and approver give a node its certificate, and its
 * webhook, called as kube-apiserver calls it with the identity from that certificate, judges the
 * node's updates of real Node objects (subnets from the Node informer).
 */
class IdentityServiceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void issuesNodeCertificatesAndJudgesThatNodesUpdates() throws Exception {
        try (Cluster cluster = new Cluster(false, "node1", "node2")) {
            for (String node : new String[] {"node1", "node2"}) {
                cluster.admin.nodes().withName(node).edit(n -> new NodeBuilder(n).editMetadata()
                        .addToAnnotations("k8s.ovn.org/node-subnets", "{\"default\":[\"10.244." + node.charAt(4) + ".0/24\"]}").endMetadata().build());
            }
            try (SandboxIdentity identity = SandboxIdentity.start(cluster.admin, cluster.folder, true);
                    WebhookCaller apiServer = identity.caller();
                    NodeCertificateBootstrap agent = new NodeCertificateBootstrap(new NodeCertificateBootstrap.Settings("node1",
                            cluster.folder.resolve("node1"), Duration.ofHours(1), 0.8, Duration.ofSeconds(20), Duration.ofMillis(100), Duration.ofSeconds(1)),
                            cluster.bootstrapConfig("node1"), Clock.systemUTC())) {
                NodeCredentials credentials = agent.start();
                assertThat(identity.clientCa()).isEqualTo(cluster.clientCa.certificate());
                X509Certificate node1 = credentials.certificate();

                assertThat(apiServer.podStatusUpdate(node1, pod("node1", null), pod("node1", "10.244.1.5/24"))).isEqualTo(AdmissionDecision.ALLOW);
                assertThat(apiServer.podStatusUpdate(node1, pod("node1", null), pod("node1", "10.244.2.5/24")))
                        .isInstanceOfSatisfying(AdmissionDecision.Deny.class, d -> assertThat(d.message()).contains("does not belong to node node1"));
                assertThat(apiServer.podStatusUpdate(node1, pod("node2", null), pod("node2", "10.244.2.5/24"))).isInstanceOf(AdmissionDecision.Deny.class);

                JsonNode own = node(cluster, "node1");
                assertThat(apiServer.nodeStatusUpdate(node1, own, annotated(own, "k8s.ovn.org/node-encap-ips", "[\"172.18.0.3\"]")))
                        .isEqualTo(AdmissionDecision.ALLOW);
                assertThat(apiServer.nodeStatusUpdate(node1, own, annotated(own, "k8s.ovn.org/trust-zones", "{\"__default\":[\"tz1\"]}")))
                        .isInstanceOf(AdmissionDecision.Deny.class);
                JsonNode other = node(cluster, "node2");
                assertThat(apiServer.nodeStatusUpdate(node1, other, annotated(other, "k8s.ovn.org/node-encap-ips", "[\"172.18.0.3\"]")))
                        .isInstanceOfSatisfying(AdmissionDecision.Deny.class, d -> assertThat(d.message()).contains("not allowed to modify node node2"));
            }
        }
    }

    private JsonNode node(Cluster cluster, String name) {
        return JSON.valueToTree(cluster.admin.nodes().withName(name).get());
    }

    private static JsonNode annotated(JsonNode object, String key, String value) {
        ObjectNode copy = object.deepCopy();
        ((ObjectNode) copy.get("metadata")).withObjectProperty("annotations").put(key, value);
        return copy;
    }

    private static JsonNode pod(String nodeName, String ip) {
        ObjectNode pod = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode metadata = pod.putObject("metadata").put("name", "web").put("namespace", "default");
        pod.putObject("spec").put("nodeName", nodeName);
        if (ip != null) {
            metadata.putObject("annotations").put("k8s.ovn.org/pod-networks",
                    "{\"default\":{\"ip_addresses\":[\"" + ip + "\"],\"mac_address\":\"0a:58:0a:f4:01:05\",\"role\":\"primary\"}}");
        }
        return pod;
    }
}
