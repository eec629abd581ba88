package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.infra.EmulatedNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Trust zones on five emulated nodes (none, none, [tz1], [tz2], [tz1,tz2]): geneve tunnels, SB Chassis rows and real
 * pod connectivity exist exactly between nodes that share a zone, follow annotation changes at runtime, and a malformed
 * annotation isolates its node.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class TrustZonesE2ETest {
    static SandboxFixture sb;
    static final Map<String, Pod> pods = new HashMap<>();
    static final List<String> NODES = List.of("node-1", "node-2", "node-3", "node-4", "node-5");

    @BeforeAll
    static void up() throws Exception {
        sb = new SandboxFixture(5);
        sb.namespace("tz", Map.of());
        for (String n : NODES) sb.pod("tz", "on-" + n, n, Map.of());
        for (String n : NODES) pods.put(n, sb.awaitRunning("tz", "on-" + n));
    }

    @AfterAll
    static void down() {
        if (sb != null) {
            sb.close();
            assertThat(sb.leftovers()).isEmpty();
        }
    }

    @Test
    @Order(1)
    void withoutZonesEveryNodeHasATunnelToEveryOther() throws Exception {
        assertConverged(allPairs(NODES));
    }

    @Test
    @Order(2)
    void tunnelsChassisAndPacketsFollowTheReferenceMatrix() throws Exception {
        zones("node-3", "{\"__default\":[\"tz1\"]}");
        zones("node-4", "{\"__default\":[\"tz2\"]}");
        zones("node-5", "{\"__default\":[\"tz1\",\"tz2\"]}");
        // none/none yes; tz1/tz2 no; tz2/tz2 (4-5 via tz2) yes; none/tz2 no; [tz1,tz2]/tz2 yes
        assertConverged(Set.of("node-1|node-2", "node-3|node-5", "node-4|node-5"));
    }

    @Test
    @Order(3)
    void aZoneChangeAtRuntimeOpensAndClosesTunnels() throws Exception {
        zones("node-4", "{\"__default\":[\"tz1\"]}");
        assertConverged(Set.of("node-1|node-2", "node-3|node-4", "node-3|node-5", "node-4|node-5"));
    }

    @Test
    @Order(4)
    void aMalformedAnnotationIsolatesItsNode() throws Exception {
        zones("node-1", "{not json");
        assertConverged(Set.of("node-3|node-4", "node-3|node-5", "node-4|node-5"));
        assertThat(sb.client.v1().events().inNamespace("default").list().getItems())
                .anySatisfy(e -> assertThat(e.getInvolvedObject().getName() + " " + e.getMessage())
                        .contains("node-1"));
    }

    private static void zones(String node, String value) {
        sb.client
                .nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"k8s.ovn.org/trust-zones\":" + quote(value) + "}}}");
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Within 10 s, tunnels and SB chassis match {@code sharing} exactly; then real packets agree. */
    private static void assertConverged(Set<String> sharing) throws Exception {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    for (EmulatedNode n : sb.sandbox.nodes()) {
                        Set<String> expected = peersOf(n.name(), sharing);
                        assertThat(tunnelPeers(n))
                                .as("geneve tunnels of " + n.name())
                                .isEqualTo(expected);
                        assertThat(remoteChassisPeers(n))
                                .as("remote chassis in the SB of " + n.name())
                                .isEqualTo(expected);
                    }
                });
        // The SB and the tunnels agree; ovn-controller may still be installing the flows they imply, so
        // the packets get as long again: a pair that disagrees is probed again until then.
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(connectivityMismatches(sharing))
                        .as("pod connectivity across nodes")
                        .isEmpty());
    }

    private static List<String> connectivityMismatches(Set<String> sharing) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<String>> mismatches = new ArrayList<>();
            for (String a : NODES) {
                for (String b : NODES) {
                    if (a.equals(b)) continue;
                    boolean share = sharing.contains(pair(a, b));
                    mismatches.add(pool.submit(() -> {
                        Verdict v =
                                sb.probe(pods.get(a), pods.get(b), "tcp", 80).verdict();
                        return (v == Verdict.ALLOWED) == share
                                ? null
                                : a + " -> " + b + ": " + v + " but share=" + share;
                    }));
                }
            }
            List<String> wrong = new ArrayList<>();
            for (Future<String> f : mismatches) if (f.get() != null) wrong.add(f.get());
            return wrong;
        }
    }

    private static Set<String> peersOf(String node, Set<String> sharing) {
        Set<String> out = new TreeSet<>();
        for (String p : sharing) {
            String[] ab = p.split("\\|");
            if (ab[0].equals(node)) out.add(ab[1]);
            if (ab[1].equals(node)) out.add(ab[0]);
        }
        return out;
    }

    private static Set<String> allPairs(List<String> nodes) {
        Set<String> out = new TreeSet<>();
        for (String a : nodes) for (String b : nodes) if (a.compareTo(b) < 0) out.add(a + "|" + b);
        return out;
    }

    private static String pair(String a, String b) {
        return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
    }

    /** Nodes this node's OVS has a geneve interface toward, found by the tunnel's remote_ip. */
    private static Set<String> tunnelPeers(EmulatedNode n) {
        var remoteIps = n.tunnels().values();
        Set<String> peers = new TreeSet<>();
        for (EmulatedNode other : sb.sandbox.nodes()) {
            if (other != n && remoteIps.contains(other.encapIp())) peers.add(other.name());
        }
        return peers;
    }

    /** Nodes whose chassis this node's SB holds (besides its own). */
    private static Set<String> remoteChassisPeers(EmulatedNode n) {
        Set<String> names = new TreeSet<>(Arrays.asList(
                n.sbctl("--bare", "--columns=name", "list", "Chassis").split("\\s+")));
        Set<String> peers = new TreeSet<>();
        for (EmulatedNode other : sb.sandbox.nodes()) {
            if (other != n && names.contains(other.systemId())) peers.add(other.name());
        }
        return peers;
    }
}
