package io.kovn.sandbox.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kovn.node.plumbing.PlumbedInterface;
import io.kovn.node.plumbing.PlumbingCheck;
import io.kovn.node.plumbing.PlumbingException;
import io.kovn.node.plumbing.PodInterfaceSpec;
import io.kovn.node.plumbing.PodPlumber;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** One emulated node, its NB programmed by hand, pods wired by the real {@link PodPlumber}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SingleNodePlumbingTest {
    private final String prefix = "kvt" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
    private Path folder;
    private Underlay underlay;
    private EmulatedNode node;
    private PodPlumber plumber;

    @BeforeAll
    void startNode() throws IOException {
        folder = Files.createTempDirectory(Path.of("/tmp"), "kvt");
        underlay = Underlay.create(prefix, "10.251.17.0/24");
        node = EmulatedNode.start(underlay, "node-a", folder.resolve("node-a"), OvnRuntime.locate());
        node.nbctl("ls-add", "sw0");
        for (int i = 3; i <= 6; i++) {
            String lsp = "default_pod" + i;
            node.nbctl("lsp-add", "sw0", lsp, "--", "lsp-set-addresses", lsp, mac(i) + " 10.244.0." + i);
        }
        for (int i = 7; i <= 8; i++) {
            String lsp = "default_pod" + i;
            node.nbctl("lsp-add", "sw0", lsp, "--", "lsp-set-addresses", lsp,
                    mac(i) + " 10.244.0." + i + " fd00:10:244::" + i);
        }
        plumber = new PodPlumber(node.netns(), node.vsctl(), "br-int", Duration.ofSeconds(15));
    }

    @AfterAll
    void tearDown() {
        try {
            if (node != null) {
                node.close();
            }
            if (underlay != null) {
                underlay.close();
            }
        } finally {
            Leftovers.cleanup(prefix, folder);
            assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
            assertThat(Netns.root().links()).noneMatch(l -> l.startsWith(prefix));
            assertThat(folder).doesNotExist();
        }
    }

    private static String mac(int i) {
        return "0a:58:0a:f4:00:%02x".formatted(i);
    }

    private PodInterfaceSpec spec(EmulatedPod pod, int i) {
        return new PodInterfaceSpec("default", pod.name(), "uid-" + i, "ctr" + i + "abcdef0123456789", pod.netns(),
                "eth0", mac(i), List.of("10.244.0." + i + "/24"), List.of("10.244.0.1"), List.of(), 1400);
    }

    @Test
    void twoPodsOnOneSwitchExchangeIcmpTcpAndUdp() {
        try (EmulatedPod a = EmulatedPod.create(prefix, "default", "pod3");
             EmulatedPod b = EmulatedPod.create(prefix, "default", "pod4")) {
            PlumbedInterface pa = plumber.add(spec(a, 3));
            plumber.add(spec(b, 4));
            assertThat(pa.hostInterface()).isEqualTo("ctr3abcdef01234");
            assertThat(a.exec("busybox", "ping", "-c", "1", "-W", "2", "10.244.0.4")).contains("1 packets received");

            Process tcp = Socat.tcpServer(b, 8080, "pod4-tcp");
            Process udp = Socat.udpServer(b, 9090, "pod4-udp");
            try {
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(Socat.tcp(a, "10.244.0.4", 8080)).contains("pod4-tcp"));
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(Socat.udp(a, "10.244.0.4", 9090)).contains("pod4-udp"));
            } finally {
                tcp.destroyForcibly();
                udp.destroyForcibly();
            }
        }
    }

    @Test
    void deleteRemovesVethAndPortAndIsIdempotent() {
        try (EmulatedPod c = EmulatedPod.create(prefix, "default", "pod5")) {
            PodInterfaceSpec s = spec(c, 5);
            PlumbedInterface p = plumber.add(s);
            assertThat(node.vsctl().run("list-ports", "br-int")).contains(p.hostInterface());
            assertThat(plumber.plumbedContainers()).containsEntry(p.hostInterface(), s.containerId());
            assertThat(plumber.check(s)).isInstanceOf(PlumbingCheck.Healthy.class);

            plumber.del(s.containerId(), c.netns(), "eth0");
            assertThat(node.vsctl().run("list-ports", "br-int")).doesNotContain(p.hostInterface());
            assertThat(node.netns().linkExists(p.hostInterface())).isFalse();
            assertThat(c.netns().linkExists("eth0")).isFalse();
            assertThat(plumber.check(s)).isInstanceOf(PlumbingCheck.Broken.class);

            plumber.del(s.containerId(), c.netns(), "eth0");
            plumber.del("never-plumbed", null, "eth0");
        }
    }

    @Test
    void checkNamesWhatIsBroken() {
        try (EmulatedPod d = EmulatedPod.create(prefix, "default", "pod6")) {
            PodInterfaceSpec s = spec(d, 6);
            plumber.add(s);
            d.netns().setMac("eth0", "0a:58:0a:f4:00:99");
            assertThat(plumber.check(s)).isInstanceOfSatisfying(PlumbingCheck.Broken.class,
                    b -> assertThat(b.problems()).singleElement().asString().contains("pod MAC"));
            plumber.del(s.containerId(), d.netns(), "eth0");
        }
    }

    @Test
    void aPortOvnDoesNotKnowTimesOutAndLeavesNothingBehind() {
        PodPlumber impatient = new PodPlumber(node.netns(), node.vsctl(), "br-int", Duration.ofSeconds(1));
        try (EmulatedPod e = EmulatedPod.create(prefix, "other", "unknown")) {
            PodInterfaceSpec s = new PodInterfaceSpec("other", "unknown", null, "ctrunknown", e.netns(), "eth0",
                    mac(9), List.of("10.244.0.9/24"), List.of("10.244.0.1"), List.of(), 1400);
            assertThatThrownBy(() -> impatient.add(s)).isInstanceOf(PlumbingException.class)
                    .hasMessageContaining("not ovn-installed");
            assertThat(node.vsctl().run("list-ports", "br-int")).doesNotContain("ctrunknown");
            assertThat(node.netns().linkExists("ctrunknown")).isFalse();
            assertThat(e.netns().linkExists("eth0")).isFalse();
        }
    }

    @Test
    void dualStackPodsReachEachOtherOverIpv6AtOnce() {
        try (EmulatedPod a = EmulatedPod.create(prefix, "default", "pod7");
             EmulatedPod b = EmulatedPod.create(prefix, "default", "pod8")) {
            for (int i = 7; i <= 8; i++) {
                EmulatedPod p = i == 7 ? a : b;
                plumber.add(new PodInterfaceSpec("default", p.name(), null, "ctr" + i, p.netns(), "eth0", mac(i),
                        List.of("10.244.0." + i + "/24", "fd00:10:244::" + i + "/64"),
                        List.of("10.244.0.1", "fd00:10:244::1"), List.of(), 1400));
            }
            assertThat(a.netns().ip("-6", "route")).contains("default via fd00:10:244::1 dev eth0");
            // no duplicate address detection: the address is usable the moment ADD returns
            assertThat(a.exec("busybox", "ping", "-6", "-c", "1", "-W", "2", "fd00:10:244::8")).contains("1 packets received");
            plumber.del("ctr7", a.netns(), "eth0");
            plumber.del("ctr8", b.netns(), "eth0");
        }
    }

    @Test
    void anAddThatCannotCreateItsInterfaceLeavesTheExistingOneAlone() {
        try (EmulatedPod f = EmulatedPod.create(prefix, "default", "busy")) {
            f.netns().addVethPair("eth0", "other");
            PodInterfaceSpec s = new PodInterfaceSpec("default", "busy", null, "ctrbusy", f.netns(), "eth0", mac(10),
                    List.of("10.244.0.10/24"), List.of(), List.of(), 1400);
            assertThatThrownBy(() -> plumber.add(s)).isInstanceOf(PlumbingException.class)
                    .hasMessageContaining("File exists");
            assertThat(f.netns().linkExists("eth0")).isTrue();
            assertThat(node.netns().linkExists("ctrbusy")).isFalse();
        }
    }
}
