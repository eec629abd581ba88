package io.kovn.node.ovs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.OvsVswitchdProcess;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

@Tag("real")
class OvsBridgeConfigTest {
    private final OvsBridgeConfig config = new OvsBridgeConfig("br-int", "netdev", "chassis-1", "node-a",
            "172.30.0.2", "unix:/run/sb.sock");

    @Test
    void oneTransactionCreatesBrIntAndSetsTheChassisExternalIds() {
        assertThat(config.vsctlArgs()).containsSubsequence("--may-exist", "add-br", "br-int")
                .contains("datapath_type=netdev", "external_ids:system-id=\"chassis-1\"",
                        "external_ids:ovn-encap-type=geneve", "external_ids:ovn-encap-ip=\"172.30.0.2\"",
                        "external_ids:ovn-remote=\"unix:/run/sb.sock\"",
                        "external_ids:ovn-bridge-datapath-type=netdev", "external_ids:ovn-is-interconn=true");
    }

    @Test
    void datapathIsNetdevWithoutTheKernelModule(@TempDir Path dir) throws IOException {
        assertThat(OvsBridgeConfig.detectDatapathType(dir.resolve("absent"))).isEqualTo("netdev");
        assertThat(OvsBridgeConfig.detectDatapathType(Files.createDirectory(dir.resolve("openvswitch")))).isEqualTo("system");
    }

    @Test
    void applyingTwiceOnARealSwitchConvergesToTheSameConfiguration() throws IOException {
        OvnRuntime rt = OvnRuntime.locate();
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kvo");
        Netns ns = Netns.add("kvo" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)));
        try (OvsdbServerProcess db = OvsdbServerProcess.start(rt, rt.vswitchSchema(), dir, "conf",
                OvsdbServerProcess.Options.unixOnly())) {
            OvsVsctl vsctl = OvsVsctl.of(rt.binDir(), db.socket());
            vsctl.run("--no-wait", "init");
            assertThat(OvsBridgeConfig.existingSystemId(vsctl)).isEmpty();
            try (OvsVswitchdProcess vswitchd = OvsVswitchdProcess.start(rt.binDir(), db.socket(), dir, ns)) {
                config.apply(vsctl);
                String first = vsctl.run("get", "Open_vSwitch", ".", "external_ids");
                config.apply(vsctl);
                assertThat(vsctl.run("get", "Open_vSwitch", ".", "external_ids")).isEqualTo(first)
                        .contains("system-id=chassis-1", "ovn-encap-ip=\"172.30.0.2\"");
                assertThat(vsctl.run("get", "Bridge", "br-int", "datapath_type").strip()).isEqualTo("netdev");
                assertThat(OvsBridgeConfig.existingSystemId(vsctl)).contains("chassis-1");
                assertThat(vsctl.run("list-br")).isEqualTo("br-int\n");
                // the netdev bridge's internal port lives in the namespace vswitchd runs in
                assertThat(ns.linkExists("br-int")).isTrue();
                assertThat(vswitchd.appctl("version")).contains("ovs-vswitchd");
            }
        } finally {
            ns.delete();
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        assertThat(Netns.list()).doesNotContain(ns.name().orElseThrow());
    }
}
