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

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.identity.testing.Cluster;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What kube-apiserver lets a node identity ({@code system:ovn-node:n1} in {@code system:ovn-nodes}, a client
 * certificate of the cluster CA) write, with {@code deploy/}'s RBAC and the identity webhook registered: its own Node's
 * annotations and its own pods' pod-networks within its subnet, through the status subresources; nothing else. Each
 * refusal is told apart by its message: RBAC's 403 on the main resources, the webhook's denial on the status
 * subresources.
 */
@Tag("real")
class NodeIdentityWritesTest {
    static final String NODE_WEBHOOK_DENIED = "admission webhook \"node.identity.kovn.io\" denied the request: ";
    static final String POD_WEBHOOK_DENIED = "admission webhook \"pod.identity.kovn.io\" denied the request: ";
    static final String TRUST_ZONES = "k8s.ovn.org/trust-zones";

    static Cluster cluster;
    static KubernetesClient n1;

    @BeforeAll
    static void up() throws Exception {
        cluster = Cluster.withIdentityService("n1", "n2");
        cluster.annotateNode("n1", "k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.1.0/24\"]}");
        cluster.annotateNode("n2", "k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.2.0/24\"]}");
        cluster.createPod("apps", "p1", "n1");
        cluster.createPod("apps", "p2", "n2");
        n1 = cluster.nodeIdentity("n1");
    }

    @AfterAll
    static void down() throws Exception {
        n1.close();
        cluster.close();
    }

    @Test
    void itsOwnNodesChassisAndEncapAnnotationsGoThroughNodesStatus() {
        nodeStatus(
                n1,
                "n1",
                "{\"metadata\":{\"annotations\":{\"k8s.ovn.org/node-chassis-id\":\"6a4b1e0c-0000-4000-8000-000000000001\","
                        + "\"k8s.ovn.org/node-encap-ips\":\"[\\\"172.18.0.11\\\"]\"}}}");
        assertThat(annotations(storedNode("n1")))
                .containsEntry("k8s.ovn.org/node-chassis-id", "6a4b1e0c-0000-4000-8000-000000000001")
                .containsEntry("k8s.ovn.org/node-encap-ips", "[\"172.18.0.11\"]");
    }

    @Test
    void itsOwnPodsAddressWithinItsSubnetGoesThroughPodsStatus() {
        podStatus(n1, "apps", "p1", annotation(POD_NETWORKS, podNetworks("10.244.1.7/24")));
        assertThat(annotations(storedPod("p1"))).containsEntry(POD_NETWORKS, podNetworks("10.244.1.7/24"));
    }

    @Test
    void trustZonesCannotBeSetOnItsOwnNode() {
        String set = annotation(TRUST_ZONES, "{\"__default\":[\"tz1\"]}");
        assertThat(refusal(() -> node(n1, "n1", set)))
                .startsWith("403")
                .contains("User \"system:ovn-node:n1\" cannot patch resource \"nodes\" in API group \"\"");
        assertThat(refusal(() -> nodeStatus(n1, "n1", set)))
                .contains(NODE_WEBHOOK_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to set the following annotations on node n1: ["
                        + TRUST_ZONES + "]");
        assertThat(annotations(storedNode("n1"))).doesNotContainKey(TRUST_ZONES);
    }

    @Test
    void trustZonesSetByTheAdminCannotBeChangedOrRemovedByTheNode() {
        cluster.annotateNode("n1", TRUST_ZONES, "{\"__default\":[\"tz1\"]}");
        try {
            String change = annotation(TRUST_ZONES, "{\"__default\":[\"tz2\"]}");
            String remove = "{\"metadata\":{\"annotations\":{\"" + TRUST_ZONES + "\":null}}}";
            assertThat(refusal(() -> node(n1, "n1", change)))
                    .startsWith("403")
                    .contains("cannot patch resource \"nodes\"");
            assertThat(refusal(() -> nodeStatus(n1, "n1", change)))
                    .contains(NODE_WEBHOOK_DENIED)
                    .contains("[" + TRUST_ZONES + "]");
            assertThat(refusal(() -> nodeStatus(n1, "n1", remove)))
                    .contains(NODE_WEBHOOK_DENIED)
                    .contains("[" + TRUST_ZONES + "]");
            assertThat(annotations(storedNode("n1"))).containsEntry(TRUST_ZONES, "{\"__default\":[\"tz1\"]}");
        } finally {
            cluster.admin
                    .nodes()
                    .withName("n1")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"metadata\":{\"annotations\":{\"" + TRUST_ZONES + "\":null}}}");
        }
    }

    @Test
    void anotherNodesAnnotationsCannotBeWritten() {
        String encap = annotation("k8s.ovn.org/node-encap-ips", "[\"172.18.0.66\"]");
        assertThat(refusal(() -> nodeStatus(n1, "n2", encap)))
                .contains(NODE_WEBHOOK_DENIED + "node identity system:ovn-node:n1 is not allowed to modify node n2");
        assertThat(refusal(() -> node(n1, "n2", encap))).startsWith("403").contains("cannot patch resource \"nodes\"");
        assertThat(annotations(storedNode("n2"))).doesNotContainKey("k8s.ovn.org/node-encap-ips");
    }

    @Test
    void anotherNodesPodsCannotBeChanged() {
        String networks = annotation(POD_NETWORKS, podNetworks("10.244.2.9/24"));
        assertThat(refusal(() -> podStatus(n1, "apps", "p2", networks)))
                .contains(POD_WEBHOOK_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to modify pod p2 on node n2");
        assertThat(refusal(() -> pod(n1, "apps", "p2", networks)))
                .startsWith("403")
                .contains(
                        "User \"system:ovn-node:n1\" cannot patch resource \"pods\" in API group \"\" in the namespace \"apps\"");
        assertThat(annotations(storedPod("p2"))).doesNotContainKey(POD_NETWORKS);
    }

    @Test
    void podAddressesOutsideItsNodeSubnetAreRefused() {
        assertThat(refusal(() -> podStatus(n1, "apps", "p1", annotation(POD_NETWORKS, podNetworks("10.244.2.7/24")))))
                .contains(POD_WEBHOOK_DENIED + "user system:ovn-node:n1 is not allowed to set " + POD_NETWORKS
                        + " on pod p1: " + "10.244.2.7 does not belong to node n1 (subnets [10.244.1.0/24])");
        assertThat(refusal(() -> podStatus(n1, "apps", "p1", annotation(POD_NETWORKS, podNetworks("192.168.1.7/24")))))
                .contains(POD_WEBHOOK_DENIED)
                .contains("192.168.1.7 does not belong to node n1");
        assertThat(annotations(storedPod("p1")).get(POD_NETWORKS)).doesNotContain("10.244.2.7", "192.168.1.7");
    }

    @Test
    void itsOwnSubnetCannotBeWidened() {
        // else any address would be "within its subnet"
        assertThat(refusal(() ->
                        nodeStatus(n1, "n1", annotation("k8s.ovn.org/node-subnets", "{\"default\":[\"10.0.0.0/8\"]}"))))
                .contains(NODE_WEBHOOK_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to set the following annotations on node n1: "
                        + "[k8s.ovn.org/node-subnets]");
        assertThat(annotations(storedNode("n1")))
                .containsEntry("k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.1.0/24\"]}");
    }

    @Test
    void labelsOfItsNodeAndPodsCannotBeChanged() {
        String relabel = label("topology.kubernetes.io/zone", "elsewhere");
        assertThat(refusal(() -> node(n1, "n1", relabel)))
                .startsWith("403")
                .contains("cannot patch resource \"nodes\"");
        assertThat(refusal(() -> nodeStatus(n1, "n1", relabel)))
                .contains(NODE_WEBHOOK_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to modify anything other than annotations");
        assertThat(refusal(() -> pod(n1, "apps", "p1", relabel)))
                .startsWith("403")
                .contains("cannot patch resource \"pods\"");
        assertThat(refusal(() -> podStatus(n1, "apps", "p1", relabel)))
                .contains(POD_WEBHOOK_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to modify anything other than annotations");
        assertThat(storedNode("n1").getMetadata().getLabels()).doesNotContainKey("topology.kubernetes.io/zone");
        assertThat(storedPod("p1").getMetadata().getLabels()).isEqualTo(Map.of("app", "p1"));
    }

    @Test
    void specsOfItsNodeAndPodsCannotBeChanged() {
        String cordon = "{\"spec\":{\"unschedulable\":true}}";
        String deadline = "{\"spec\":{\"activeDeadlineSeconds\":5}}";
        assertThat(refusal(() -> node(n1, "n1", cordon))).startsWith("403").contains("cannot patch resource \"nodes\"");
        assertThat(refusal(() -> pod(n1, "apps", "p1", deadline)))
                .startsWith("403")
                .contains("cannot patch resource \"pods\"");
        // Through the status subresources kube-apiserver keeps the stored spec (the status strategies
        // copy it over the request's): the call succeeds and changes nothing.
        nodeStatus(n1, "n1", cordon);
        podStatus(n1, "apps", "p1", deadline);
        assertThat(storedNode("n1").getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
        assertThat(storedPod("p1").getSpec().getActiveDeadlineSeconds()).isNull();
    }

    @Test
    void statusFieldsOfItsNodeAndPodsCannotBeChanged() {
        assertThat(refusal(() -> nodeStatus(
                        n1, "n1", "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"10.9.9.9\"}]}}")))
                .contains(NODE_WEBHOOK_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to modify anything other than annotations");
        assertThat(refusal(() -> podStatus(
                        n1,
                        "apps",
                        "p1",
                        "{\"status\":{\"podIP\":\"10.244.2.7\",\"podIPs\":[{\"ip\":\"10.244.2.7\"}]}}")))
                .contains(POD_WEBHOOK_DENIED
                        + "node identity system:ovn-node:n1 is not allowed to modify anything other than annotations");
    }

    private static Node storedNode(String name) {
        return cluster.admin.nodes().withName(name).get();
    }

    private static Pod storedPod(String name) {
        return cluster.admin.pods().inNamespace("apps").withName(name).get();
    }

    private static Map<String, String> annotations(HasMetadata object) {
        return object.getMetadata().getAnnotations() == null
                ? Map.of()
                : object.getMetadata().getAnnotations();
    }
}
