package io.kovn.sandbox.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kovn.node.plumbing.PodInterfaceSpec;
import io.kovn.node.plumbing.PodPlumber;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Two emulated nodes on one underlay: geneve tunnels follow the remote chassis in each zone's SB. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class TwoNodeTunnelTest {
    private final String prefix =
            "kvt" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
    private Path folder;
    private Underlay underlay;
    private EmulatedNode a;
    private EmulatedNode b;

    @BeforeAll
    void startNodes() throws IOException {
        folder = Files.createTempDirectory(Path.of("/tmp"), "kvt");
        underlay = Underlay.create(prefix, "10.251.18.0/24");
        a = EmulatedNode.start(underlay, "node-a", folder.resolve("a"), OvnRuntime.locate());
        b = EmulatedNode.start(underlay, "node-b", folder.resolve("b"), OvnRuntime.locate());
    }

    @AfterAll
    void tearDown() {
        try {
            for (AutoCloseable c : new AutoCloseable[] {a, b, underlay}) {
                if (c != null) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        // Leftovers below removes whatever close could not
                    }
                }
            }
        } finally {
            Leftovers.cleanup(prefix, folder);
            assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
            assertThat(Netns.root().links()).noneMatch(l -> l.startsWith(prefix));
        }
    }

    private static void addRemoteChassis(EmulatedNode in, EmulatedNode remote) {
        in.sbctl(
                "chassis-add",
                remote.systemId(),
                "geneve",
                remote.encapIp(),
                "--",
                "set",
                "Chassis",
                remote.systemId(),
                "other_config:is-remote=true");
    }

    @Test
    void aRemoteChassisInTheSbGetsAGeneveInterfaceThatGoesAwayWithIt() {
        assertThat(a.tunnels()).isEmpty();
        addRemoteChassis(a, b);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(a.tunnels())
                        .containsExactly(Map.entry("ovn-" + b.systemId().substring(0, 6) + "-0", b.encapIp())));
        assertThat(b.tunnels()).isEmpty();

        a.sbctl("chassis-del", b.systemId());
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(a.tunnels()).isEmpty());
    }

    @Test
    void podsOnTwoNodesExchangeIcmpTcpAndUdpThroughTheTunnel() {
        addRemoteChassis(b, a);
        addRemoteChassis(a, b);
        try (EmulatedPod pa = EmulatedPod.create(prefix, "default", "pa");
                EmulatedPod pb = EmulatedPod.create(prefix, "default", "pb")) {
            // The same transit switch in both zones; each zone has its own port local, the other remote.
            for (EmulatedNode zone : List.of(a, b)) {
                zone.nbctl(
                        "ls-add",
                        "ts",
                        "--",
                        "set",
                        "Logical_Switch",
                        "ts",
                        "other_config:interconn-ts=ts",
                        "other_config:requested-tnl-key=100");
            }
            lsp(a, "default_pa", "0a:58:0a:f5:00:03 10.245.0.3", 3, null);
            lsp(a, "default_pb", "0a:58:0a:f5:00:04 10.245.0.4", 4, b.systemId());
            lsp(b, "default_pb", "0a:58:0a:f5:00:04 10.245.0.4", 4, null);
            lsp(b, "default_pa", "0a:58:0a:f5:00:03 10.245.0.3", 3, a.systemId());
            plumb(a, pa, 3);
            plumb(b, pb, 4);
            await().atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(pa.netns()
                                    .tryExec("busybox", "ping", "-c", "1", "-W", "1", "10.245.0.4")
                                    .stdout())
                            .contains("1 packets received"));
            Process tcp = Socat.tcpServer(pb, 8080, "pb-tcp");
            Process udp = Socat.udpServer(pb, 9090, "pb-udp");
            try {
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() ->
                                assertThat(Socat.tcp(pa, "10.245.0.4", 8080)).contains("pb-tcp"));
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() ->
                                assertThat(Socat.udp(pa, "10.245.0.4", 9090)).contains("pb-udp"));
            } finally {
                tcp.destroyForcibly();
                udp.destroyForcibly();
            }
        } finally {
            a.sbctl("--if-exists", "chassis-del", b.systemId());
            b.sbctl("--if-exists", "chassis-del", a.systemId());
        }
    }

    private static void lsp(EmulatedNode zone, String name, String addresses, int key, String remoteChassis) {
        zone.nbctl(
                "lsp-add",
                "ts",
                name,
                "--",
                "lsp-set-addresses",
                name,
                addresses,
                "--",
                "set",
                "Logical_Switch_Port",
                name,
                "options:requested-tnl-key=" + key);
        if (remoteChassis != null) {
            zone.nbctl(
                    "lsp-set-type",
                    name,
                    "remote",
                    "--",
                    "set",
                    "Logical_Switch_Port",
                    name,
                    "options:requested-chassis=" + remoteChassis);
        }
    }

    private static void plumb(EmulatedNode node, EmulatedPod pod, int i) {
        new PodPlumber(node.netns(), node.confDb(), "br-int", Duration.ofSeconds(15))
                .add(new PodInterfaceSpec(
                        "default",
                        pod.name(),
                        null,
                        "tun" + pod.name(),
                        pod.netns(),
                        "eth0",
                        "0a:58:0a:f5:00:0" + i,
                        List.of("10.245.0." + i + "/24"),
                        List.of(),
                        List.of(),
                        1400));
    }
}
