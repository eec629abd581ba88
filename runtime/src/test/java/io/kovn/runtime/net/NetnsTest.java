package io.kovn.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("real")
class NetnsTest {
    private final String prefix =
            "kvnt" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";

    @AfterEach
    void cleanUp() {
        for (String ns : Netns.list()) {
            if (ns.startsWith(prefix)) {
                Netns.named(ns).delete();
            }
        }
        assertThat(Netns.list()).noneMatch(ns -> ns.startsWith(prefix));
    }

    @Test
    void addListAndDeleteAreVisibleAndDeleteIsIdempotent() {
        Netns ns = Netns.add(prefix + "a");
        assertThat(Netns.list()).contains(prefix + "a");
        assertThat(ns.exists()).isTrue();
        assertThat(ns.links()).contains("lo");
        ns.delete();
        ns.delete();
        assertThat(Netns.list()).doesNotContain(prefix + "a");
    }

    @Test
    void vethAcrossNamespacesCarriesPingWithAddressesAndRoutes() {
        Netns a = Netns.add(prefix + "a");
        Netns b = Netns.add(prefix + "b");
        a.addVethPair("va", "vb", b);
        a.setMac("va", "0a:58:0a:00:00:01");
        a.setMtu("va", 1400);
        a.addAddress("va", "10.199.0.1/24");
        b.addAddress("vb", "10.199.0.2/24");
        a.linkUp("va");
        b.linkUp("vb");
        b.replaceRoute("10.198.0.0/16", "10.199.0.1", "vb");
        assertThat(a.mac("va")).isEqualTo("0a:58:0a:00:00:01");
        assertThat(a.addresses("va")).contains("10.199.0.1/24");
        assertThat(b.exec("ip", "route")).contains("10.198.0.0/16 via 10.199.0.1");
        assertThat(b.exec("busybox", "ping", "-c", "1", "-W", "2", "10.199.0.1"))
                .contains("1 packets received");
        b.disableTxChecksum("vb");
        assertThat(b.exec("ethtool", "-k", "vb")).contains("tx-checksumming: off");
    }

    @Test
    void linkMovesByPathAndDeleteLinkIsIdempotent() {
        Netns a = Netns.add(prefix + "a");
        Netns byPath =
                Netns.atPath(Path.of("/proc/self/../" + ProcessHandle.current().pid() + "/ns/net"));
        assertThat(byPath.isRoot()).isFalse();
        a.addVethPair("x1", "x2");
        a.addBridge("xbr");
        a.setMaster("x1", "xbr");
        assertThat(a.exec("ip", "-o", "link", "show", "x1")).contains("master xbr");
        assertThat(a.deleteLink("x2")).isTrue();
        assertThat(a.linkExists("x1")).isFalse();
        assertThat(a.deleteLink("x2")).isFalse();
    }

    @Test
    void failuresShowTheCommandAndItsStderr() {
        Netns a = Netns.add(prefix + "a");
        assertThatThrownBy(() -> a.addAddress("nosuchdev", "10.1.1.1/24"))
                .isInstanceOf(CommandFailedException.class)
                .hasMessageContaining("ip -n " + prefix + "a addr add 10.1.1.1/24 dev nosuchdev")
                .hasMessageContaining("Cannot find device");
        assertThatThrownBy(() -> a.addVethPair("much-too-long-name", "b")).isInstanceOf(IllegalArgumentException.class);
    }
}
