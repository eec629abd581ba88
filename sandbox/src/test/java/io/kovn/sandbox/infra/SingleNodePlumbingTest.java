package io.kovn.sandbox.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kovn.node.PodInterfaces;
import io.kovn.node.cni.PodRef;
import io.kovn.node.plumbing.PlumbedInterface;
import io.kovn.node.plumbing.PlumbingCheck;
import io.kovn.node.plumbing.PlumbingException;
import io.kovn.node.plumbing.PodInterfaceSpec;
import io.kovn.node.plumbing.PodPlumber;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** One emulated node, its NB programmed by hand, pods wired by the real {@link PodPlumber}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class SingleNodePlumbingTest {
    private final String prefix =
            "kvt" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
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
            node.nbctl(
                    "lsp-add",
                    "sw0",
                    lsp,
                    "--",
                    "lsp-set-addresses",
                    lsp,
                    mac(i) + " 10.244.0." + i + " fd00:10:244::" + i);
        }
        plumber = new PodPlumber(node.netns(), node.confDb(), "br-int", Duration.ofSeconds(15));
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
        return new PodInterfaceSpec(
                "default",
                pod.name(),
                "uid-" + i,
                "ctr" + i + "abcdef0123456789",
                pod.netns(),
                "eth0",
                mac(i),
                List.of("10.244.0." + i + "/24"),
                List.of("10.244.0.1"),
                List.of(),
                1400);
    }

    @Test
    void twoPodsOnOneSwitchExchangeIcmpTcpAndUdp() {
        try (EmulatedPod a = EmulatedPod.create(prefix, "default", "pod3");
                EmulatedPod b = EmulatedPod.create(prefix, "default", "pod4")) {
            PlumbedInterface pa = plumber.add(spec(a, 3));
            plumber.add(spec(b, 4));
            assertThat(pa.hostInterface()).isEqualTo("ctr3abcdef01234");
            assertThat(a.exec("busybox", "ping", "-c", "1", "-W", "2", "10.244.0.4"))
                    .contains("1 packets received");

            Process tcp = Socat.tcpServer(b, 8080, "pod4-tcp");
            Process udp = Socat.udpServer(b, 9090, "pod4-udp");
            try {
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() ->
                                assertThat(Socat.tcp(a, "10.244.0.4", 8080)).contains("pod4-tcp"));
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() ->
                                assertThat(Socat.udp(a, "10.244.0.4", 9090)).contains("pod4-udp"));
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
            assertThat(node.ports("br-int")).contains(p.hostInterface());
            assertThat(plumber.plumbedContainers()).containsEntry(p.hostInterface(), s.containerId());
            assertThat(plumber.check(s)).isInstanceOf(PlumbingCheck.Healthy.class);

            plumber.del(s.containerId(), c.netns(), "eth0");
            assertThat(node.ports("br-int")).doesNotContain(p.hostInterface());
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
            assertThat(plumber.check(s))
                    .isInstanceOfSatisfying(
                            PlumbingCheck.Broken.class,
                            b -> assertThat(b.problems())
                                    .singleElement()
                                    .asString()
                                    .contains("pod MAC"));
            plumber.del(s.containerId(), d.netns(), "eth0");
        }
    }

    @Test
    void aPortOvnDoesNotKnowTimesOutAndLeavesNothingBehind() {
        PodPlumber impatient = new PodPlumber(node.netns(), node.confDb(), "br-int", Duration.ofSeconds(1));
        try (EmulatedPod e = EmulatedPod.create(prefix, "other", "unknown")) {
            PodInterfaceSpec s = new PodInterfaceSpec(
                    "other",
                    "unknown",
                    null,
                    "ctrunknown",
                    e.netns(),
                    "eth0",
                    mac(9),
                    List.of("10.244.0.9/24"),
                    List.of("10.244.0.1"),
                    List.of(),
                    1400);
            assertThatThrownBy(() -> impatient.add(s))
                    .isInstanceOf(PlumbingException.class)
                    .hasMessageContaining("not ovn-installed");
            assertThat(node.ports("br-int")).doesNotContain("ctrunknown");
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
                plumber.add(new PodInterfaceSpec(
                        "default",
                        p.name(),
                        null,
                        "ctr" + i,
                        p.netns(),
                        "eth0",
                        mac(i),
                        List.of("10.244.0." + i + "/24", "fd00:10:244::" + i + "/64"),
                        List.of("10.244.0.1", "fd00:10:244::1"),
                        List.of(),
                        1400));
            }
            assertThat(a.netns().ip("-6", "route")).contains("default via fd00:10:244::1 dev eth0");
            // no duplicate address detection: the address is usable the moment ADD returns
            assertThat(a.exec("busybox", "ping", "-6", "-c", "1", "-W", "2", "fd00:10:244::8"))
                    .contains("1 packets received");
            plumber.del("ctr7", a.netns(), "eth0");
            plumber.del("ctr8", b.netns(), "eth0");
        }
    }

    /** A pod of a primary Layer3 UDN, as the zone controller annotates it (PrimaryNetworkAnnotation). */
    private static PodNetworks primaryNetworkPod(String attachment) {
        return PodNetworks.parse(
                "{\"default\":{\"ip_addresses\":[\"10.244.0.11/24\"],\"mac_address\":\"0a:58:0a:f4:00:0b\","
                        + "\"gateway_ips\":[],\"routes\":[{\"dest\":\"10.244.0.0/16\",\"nextHop\":\"10.244.0.1\"},"
                        + "{\"dest\":\"100.64.0.0/16\",\"nextHop\":\"10.244.0.1\"}],\"role\":\"infrastructure-locked\"},"
                        + "\"" + attachment
                        + "\":{\"ip_addresses\":[\"10.20.2.5/24\"],\"mac_address\":\"0a:58:0a:14:02:05\","
                        + "\"gateway_ips\":[\"10.20.2.1\"],\"routes\":[{\"dest\":\"10.20.0.0/16\",\"nextHop\":\"10.20.2.1\"},"
                        + "{\"dest\":\"10.96.0.0/16\",\"nextHop\":\"10.20.2.1\"}],\"role\":\"primary\"}}");
    }

    private static List<PodInterfaceSpec> specs(EmulatedPod pod, String containerId, PodNetworks networks) {
        return PodInterfaces.plan(
                        new PodRef(pod.namespace(), pod.name(), "uid-11"),
                        containerId,
                        pod.netns(),
                        "eth0",
                        1400,
                        1300, // the primary network's own (a UDN's spec mtu)
                        networks)
                .stream()
                .map(PodInterfaces.Planned::spec)
                .toList();
    }

    /** {@code ip -j} output of the pod, one line per address or route, e.g. {@code ovn-udn1 10.20.2.5/24}. */
    private static List<String> podView(EmulatedPod pod, String... what) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode n : new ObjectMapper().readTree(pod.netns().ip(what))) {
            if (n.has("addr_info")) {
                for (JsonNode a : n.path("addr_info")) {
                    if (!a.has("local")) {
                        continue; // ip -j leaves an empty object where the filter dropped an address
                    }
                    out.add(n.path("ifname").asText() + " " + n.path("address").asText() + " "
                            + a.path("local").asText() + "/"
                            + a.path("prefixlen").asInt());
                }
            } else if (n.has("dst")) {
                out.add(n.path("dst").asText() + " via " + n.path("gateway").asText("-") + " dev "
                        + n.path("dev").asText());
            }
        }
        return out;
    }

    private String ifaceId(String port) {
        return node.confDb()
                .iface(port)
                .map(i -> i.externalIds().getOrDefault("iface-id", ""))
                .orElse("");
    }

    @Test
    void aPodOfAPrimaryUserDefinedNetworkGetsEth0AndOvnUdn1BoundToTheirPortsAndDelRemovesBoth() throws IOException {
        node.nbctl(
                "lsp-add",
                "sw0",
                "udn-test_web",
                "--",
                "lsp-set-addresses",
                "udn-test_web",
                "0a:58:0a:f4:00:0b 10.244.0.11");
        node.nbctl("ls-add", "udn0");
        node.nbctl(
                "lsp-add",
                "udn0",
                "udn.test.l3.primary_udn-test_web",
                "--",
                "lsp-set-addresses",
                "udn.test.l3.primary_udn-test_web",
                "0a:58:0a:14:02:05 10.20.2.5");
        String containerId = "ctrudn0123456789abcdef";
        try (EmulatedPod pod = EmulatedPod.create(prefix, "udn-test", "web")) {
            try {
                List<PodInterfaceSpec> specs = specs(pod, containerId, primaryNetworkPod("udn-test/l3-primary"));
                List<PlumbedInterface> plumbed = plumber.addAll(specs);

                assertThat(plumbed)
                        .extracting(PlumbedInterface::hostInterface, PlumbedInterface::podInterface)
                        .containsExactly(tuple("ctrudn012345678", "eth0"), tuple("ctrudn01234_udn", "ovn-udn1"));
                assertThat(podView(pod, "-j", "addr", "show", "scope", "global"))
                        .containsExactlyInAnyOrder(
                                "eth0 0a:58:0a:f4:00:0b 10.244.0.11/24", "ovn-udn1 0a:58:0a:14:02:05 10.20.2.5/24");
                assertThat(podView(pod, "-j", "-4", "route"))
                        .contains(
                                "default via 10.20.2.1 dev ovn-udn1",
                                "10.244.0.0/16 via 10.244.0.1 dev eth0",
                                "100.64.0.0/16 via 10.244.0.1 dev eth0",
                                "10.20.0.0/16 via 10.20.2.1 dev ovn-udn1",
                                "10.96.0.0/16 via 10.20.2.1 dev ovn-udn1")
                        .filteredOn(r -> r.startsWith("default"))
                        .containsExactly("default via 10.20.2.1 dev ovn-udn1");
                assertThat(ifaceId("ctrudn012345678")).isEqualTo("udn-test_web");
                assertThat(ifaceId("ctrudn01234_udn")).isEqualTo("udn.test.l3.primary_udn-test_web");
                assertThat(plumber.plumbedContainers())
                        .containsEntry("ctrudn012345678", containerId)
                        .containsEntry("ctrudn01234_udn", containerId);
                assertThat(List.of(pod.netns().mtu("eth0"), node.netns().mtu("ctrudn012345678")))
                        .containsOnly(1400);
                assertThat(List.of(pod.netns().mtu("ovn-udn1"), node.netns().mtu("ctrudn01234_udn")))
                        .as("the user-defined network's MTU on both ends")
                        .containsOnly(1300);
                assertThat(specs)
                        .allSatisfy(s -> assertThat(plumber.check(s)).isInstanceOf(PlumbingCheck.Healthy.class));
                pod.netns().setMtu("ovn-udn1", 1400);
                assertThat(plumber.check(specs.get(1)))
                        .isEqualTo(new PlumbingCheck.Broken(List.of("pod MTU of ovn-udn1 is 1400, expected 1300")));

                plumber.del(containerId, null, null); // as GC does: the container id alone
                assertThat(node.ports("br-int")).doesNotContain("ctrudn012345678", "ctrudn01234_udn");
                assertThat(node.netns().links()).doesNotContain("ctrudn012345678", "ctrudn01234_udn");
                assertThat(pod.netns().links()).doesNotContain("eth0", "ovn-udn1");
                assertThat(plumber.plumbedContainers()).doesNotContainValue(containerId);
            } finally {
                plumber.del(containerId, pod.netns(), "eth0");
            }
        }
    }

    @Test
    void whenTheSecondInterfaceFailsTheFirstIsRemovedToo() {
        node.nbctl("lsp-add", "sw0", "udn-test_half", "--", "lsp-set-addresses", "udn-test_half", "unknown");
        PodPlumber impatient = new PodPlumber(node.netns(), node.confDb(), "br-int", Duration.ofSeconds(1));
        String containerId = "ctrhalf0123456789";
        try (EmulatedPod pod = EmulatedPod.create(prefix, "udn-test", "half")) {
            try {
                // no switch port for the network's interface: it never becomes ovn-installed
                List<PodInterfaceSpec> specs = specs(pod, containerId, primaryNetworkPod("udn-test/absent"));
                assertThatThrownBy(() -> impatient.addAll(specs))
                        .isInstanceOf(PlumbingException.class)
                        .hasMessageContaining("ctrhalf0123_udn not ovn-installed");
                assertThat(node.ports("br-int")).doesNotContain("ctrhalf01234567", "ctrhalf0123_udn");
                assertThat(node.netns().links()).doesNotContain("ctrhalf01234567", "ctrhalf0123_udn");
                assertThat(pod.netns().links()).doesNotContain("eth0", "ovn-udn1");
            } finally {
                plumber.del(containerId, pod.netns(), "eth0");
            }
        }
    }

    @Test
    void anAddThatCannotCreateItsInterfaceLeavesTheExistingOneAlone() {
        try (EmulatedPod f = EmulatedPod.create(prefix, "default", "busy")) {
            f.netns().addVethPair("eth0", "other");
            PodInterfaceSpec s = new PodInterfaceSpec(
                    "default",
                    "busy",
                    null,
                    "ctrbusy",
                    f.netns(),
                    "eth0",
                    mac(10),
                    List.of("10.244.0.10/24"),
                    List.of(),
                    List.of(),
                    1400);
            assertThatThrownBy(() -> plumber.add(s))
                    .isInstanceOf(PlumbingException.class)
                    .hasMessageContaining("File exists");
            assertThat(f.netns().linkExists("eth0")).isTrue();
            assertThat(node.netns().linkExists("ctrbusy")).isFalse();
        }
    }
}
