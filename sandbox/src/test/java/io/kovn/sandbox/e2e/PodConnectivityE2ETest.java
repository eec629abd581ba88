package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.identity.webhook.AdmissionDecision;
import io.kovn.runtime.net.Netns;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.SandboxLayout;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** Three emulated nodes, two pods each: real TCP, UDP and ICMP across geneve tunnels. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class PodConnectivityE2ETest {
    static SandboxFixture sb;
    static final List<Pod> pods = new ArrayList<>();

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(3);
        sb.namespace("e2e", Map.of());
        for (int n = 1; n <= 3; n++) {
            for (int i = 1; i <= 2; i++) sb.pod("e2e", "p" + n + i, "node-" + n, Map.of("app", "p"));
        }
        for (int n = 1; n <= 3; n++) {
            for (int i = 1; i <= 2; i++) pods.add(sb.awaitRunning("e2e", "p" + n + i));
        }
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    @Test
    @Order(1)
    void everyPodReachesEveryOtherPodOverTcpUdpAndIcmp() throws Exception {
        for (Pod a : pods) {
            for (Pod b : pods) {
                if (a == b) continue;
                String flow =
                        a.getMetadata().getName() + " -> " + b.getMetadata().getName();
                var tcp = sb.probe(a, b, "tcp", 80);
                assertThat(tcp.verdict()).as("tcp " + flow).isEqualTo(Verdict.ALLOWED);
                assertThat(tcp.answer())
                        .as("answering pod")
                        .isEqualTo(b.getMetadata().getName());
                assertThat(sb.probe(a, b, "udp", 5353).verdict())
                        .as("udp " + flow)
                        .isEqualTo(Verdict.ALLOWED);
                assertThat(sb.probe(a, b, "icmp", 0).verdict())
                        .as("icmp " + flow)
                        .isEqualTo(Verdict.ALLOWED);
            }
        }
    }

    @Test
    @Order(2)
    void theControllersMetricsAreServedWhereTheStateFolderSays() throws Exception {
        String url = Files.readString(sb.layout.metricsUrlFile()).strip();
        assertThat(url).isEqualTo(sb.sandbox.metricsUrl());
        var http = HttpClient.newHttpClient();
        String body = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        for (String node : List.of("node-1", "node-2", "node-3")) {
            assertThat(body)
                    .contains("kovn_controller_queue_to_done_seconds_count{controller=\"policies-" + node + "\"")
                    .contains("kovn_controller_reconcile_total{controller=\"zone-pods-" + node + "\"")
                    .contains("kovn_policy_reconcile_phase_seconds_count{phase=\"nb_transaction\",zone=\"" + node
                            + "\"}");
        }
        assertThat(body).contains("ovnkube_controller_admin_network_policies{zone=\"node-1\"}");
        // the six pods' CNI ADDs, each timed, each pod's creation-to-network-ready observed; NB transactions timed
        assertThat(value(body, "kovn_cni_request_duration_seconds_count{command=\"ADD\",result=\"success\"}"))
                .isGreaterThanOrEqualTo(6);
        assertThat(value(body, "kovn_pod_creation_to_network_ready_seconds_count"))
                .isGreaterThanOrEqualTo(6);
        assertThat(value(body, "kovn_pod_creation_to_network_ready_seconds_sum"))
                .as("pods got their network seconds after creation, not minutes")
                .isPositive()
                .isLessThan(6 * 60);
        assertThat(value(body, "kovn_ovsdb_transaction_duration_seconds_count{database=\"OVN_Northbound\"}"))
                .isPositive();
        assertThat(value(body, "kovn_ovsdb_transaction_duration_seconds_count{database=\"Open_vSwitch\"}"))
                .isPositive();
    }

    /** The value of one series in a Prometheus text exposition. */
    static double value(String body, String series) {
        return body.lines()
                .filter(line -> line.startsWith(series + " "))
                .mapToDouble(line ->
                        Double.parseDouble(line.substring(series.length() + 1).strip()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no series " + series + " in\n" + body));
    }

    @Test
    @Order(4)
    void everyNodeAgentRunsOnItsOwnApprovedCertificateAndTheWebhookHoldsItToItsOwnNode() throws Exception {
        var csrs = sb.client
                .certificates()
                .v1()
                .certificateSigningRequests()
                .list()
                .getItems();
        for (String node : List.of("node-1", "node-2", "node-3")) {
            assertThat(csrs).as("CSR of " + node).anySatisfy(csr -> {
                assertThat(csr.getSpec().getUsername()).isEqualTo("system:node:" + node);
                assertThat(csr.getStatus().getConditions())
                        .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("AutoApproved"));
                assertThat(csr.getStatus().getCertificate()).isNotEmpty();
            });
        }
        var cert = certificateOf("node-1");
        assertThat(cert.getSubjectX500Principal().getName())
                .contains("CN=system:ovn-node:node-1")
                .contains("O=system:ovn-nodes");
        var caller = sb.sandbox.identity().caller();
        var json = new ObjectMapper();
        // through fabric8's own (Jackson 3) serialization: a Jackson 2 mapper misses its Quantity serializer
        var own = json.readTree(sb.client
                .getKubernetesSerialization()
                .asJson(sb.client.nodes().withName("node-1").get()));
        var other = json.readTree(sb.client
                .getKubernetesSerialization()
                .asJson(sb.client.nodes().withName("node-2").get()));
        // its own node: an allowed key passes
        var ownEncap = ((ObjectNode) own.deepCopy());
        ((ObjectNode) ownEncap.path("metadata").path("annotations"))
                .put("k8s.ovn.org/node-encap-ips", "[\"10.253.1.99\"]");
        assertThat(caller.nodeStatusUpdate(cert, own, ownEncap)).isInstanceOf(AdmissionDecision.Allow.class);
        // another node, or trust zones on its own node: denied
        var otherChanged = ((ObjectNode) other.deepCopy());
        ((ObjectNode) otherChanged.path("metadata").path("annotations"))
                .put("k8s.ovn.org/node-encap-ips", "[\"10.253.1.99\"]");
        assertThat(caller.nodeStatusUpdate(cert, other, otherChanged)).isInstanceOf(AdmissionDecision.Deny.class);
        var zones = ((ObjectNode) own.deepCopy());
        ((ObjectNode) zones.path("metadata").path("annotations"))
                .put("k8s.ovn.org/trust-zones", "{\"__default\":[\"tz1\"]}");
        assertThat(caller.nodeStatusUpdate(cert, own, zones)).isInstanceOf(AdmissionDecision.Deny.class);
    }

    @Test
    @Order(5)
    void podmanRunsAContainerOnASandboxNodeThroughKovnsConflistAndItReachesAPod(@TempDir Path tmp) throws Exception {
        sb.namespace("podman", Map.of());
        // The API object of the container podman will run: the zone controller addresses it, the
        // sandbox kubelet leaves it to the other runtime.
        sb.client
                .pods()
                .inNamespace("podman")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("box")
                        .withNamespace("podman")
                        .addToAnnotations(SandboxLayout.RUNTIME_ANNOTATION, "external")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("node-1")
                        .addNewContainer()
                        .withName("box")
                        .withImage("busybox")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        Pod target = pods.get(2); // on node-2: the container's packets cross a geneve tunnel
        try (Podman podman = new Podman(tmp, sb.layout.binDir(), sb.layout.cniSocket("node-1"), "podman")) {
            String out = podman.runContainer(
                    "box",
                    "sh",
                    "-c",
                    "ip -o -4 addr show eth0; echo probe | nc -w 3 "
                            + target.getStatus().getPodIP() + " 80");
            String ip = sb.client
                    .pods()
                    .inNamespace("podman")
                    .withName("box")
                    .get()
                    .getMetadata()
                    .getAnnotations()
                    .get("k8s.ovn.org/pod-networks");
            assertThat(ip).as("pod-networks of the podman pod").contains("10.244.");
            assertThat(out).contains("eth0").contains(target.getMetadata().getName());
        }
        // the sandbox's conf.db connection sees the node agent's writes a moment later
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(sb.sandbox
                                .nodes()
                                .getFirst()
                                .confDb()
                                .interfaces(
                                        i -> "podman_box".equals(i.externalIds().get("iface-id"))))
                        .as("podman's removal sent CNI DEL")
                        .isEmpty());
    }

    private static X509Certificate certificateOf(String node) throws Exception {
        var csr = sb.client.certificates().v1().certificateSigningRequests().list().getItems().stream()
                .filter(c -> ("system:node:" + node).equals(c.getSpec().getUsername()))
                .findFirst()
                .orElseThrow();
        byte[] pem = Base64.getDecoder().decode(csr.getStatus().getCertificate());
        return (X509Certificate)
                CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem));
    }

    @Test
    @Order(2)
    void aClosedPortIsRefusedNotDropped() throws Exception {
        assertThat(sb.probe(pods.get(0), pods.get(3), "tcp", 9999).verdict()).isEqualTo(Verdict.REFUSED);
    }

    @Test
    @Order(3)
    void aDeletedPodFreesItsIpAndLeavesNoNamespaceOrPort() throws Exception {
        Pod victim = pods.get(5);
        String netns = victim.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION);
        String ip = victim.getStatus().getPodIP();
        sb.client
                .pods()
                .inNamespace("e2e")
                .withName(victim.getMetadata().getName())
                .delete();
        await().atMost(Duration.ofSeconds(20)).until(() -> !Netns.list().contains(netns));
        var node = sb.sandbox.nodes().stream()
                .filter(n -> n.name().equals("node-3"))
                .findFirst()
                .orElseThrow();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !node.nbctl("--bare", "--columns=name", "list", "Logical_Switch_Port")
                        .contains("e2e_" + victim.getMetadata().getName()));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(node.confDb()
                                .interfaces(i -> ("e2e_" + victim.getMetadata().getName())
                                        .equals(i.externalIds().get("iface-id"))))
                        .as("no OVS interface for the deleted pod")
                        .isEmpty());
        // The freed address goes to the next pod on that node.
        sb.pod("e2e", "reborn", "node-3", Map.of("app", "p"));
        Pod reborn = sb.awaitRunning("e2e", "reborn");
        assertThat(reborn.getStatus().getPodIP()).isEqualTo(ip);
        assertThat(sb.probe(pods.get(0), reborn, "tcp", 80).answer()).isEqualTo("reborn");
    }
}
