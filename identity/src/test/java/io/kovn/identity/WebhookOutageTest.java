package io.kovn.identity;

import static io.kovn.identity.testing.Writes.POD_NETWORKS;
import static io.kovn.identity.testing.Writes.annotation;
import static io.kovn.identity.testing.Writes.nodeStatus;
import static io.kovn.identity.testing.Writes.podNetworks;
import static io.kovn.identity.testing.Writes.podStatus;
import static io.kovn.identity.testing.Writes.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.testing.Cluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * With the identity webhook down, against a real kube-apiserver and {@code deploy/}'s registration: only kovn's node
 * identities are refused (failurePolicy Fail holds for them), everyone else's node and pod status writes go through,
 * because matchConditions send only node identities' requests to the webhook.
 */
@Tag("real")
class WebhookOutageTest {
    static Cluster cluster;
    static KubernetesClient n1;

    @BeforeAll
    static void up() throws Exception {
        cluster = Cluster.withIdentityService("n1");
        cluster.annotateNode("n1", "k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.1.0/24\"]}");
        cluster.createPod("apps", "p1", "n1");
        n1 = cluster.nodeIdentity("n1");
        cluster.identity.close(); // the webhook is down from here on; its registration stays
    }

    @AfterAll
    static void down() throws Exception {
        n1.close();
        cluster.close();
    }

    @Test
    void othersWriteNodeAndPodStatusWhileTheWebhookIsDown() {
        podStatus(cluster.admin, "apps", "p1", annotation(POD_NETWORKS, podNetworks("10.244.1.9/24")));
        nodeStatus(cluster.admin, "n1", annotation("example.com/outage", "survived"));
        assertThat(cluster.admin
                        .pods()
                        .inNamespace("apps")
                        .withName("p1")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .containsEntry(POD_NETWORKS, podNetworks("10.244.1.9/24"));
    }

    @Test
    void nodeIdentitiesAreRefusedWhileTheWebhookIsDown() {
        assertThat(refusal(() -> podStatus(n1, "apps", "p1", annotation(POD_NETWORKS, podNetworks("10.244.1.8/24")))))
                .contains("failed calling webhook \"pod.identity.kovn.io\"");
        assertThat(refusal(() -> nodeStatus(n1, "n1", annotation("k8s.ovn.org/node-chassis-id", "x"))))
                .contains("failed calling webhook \"node.identity.kovn.io\"");
    }
}
