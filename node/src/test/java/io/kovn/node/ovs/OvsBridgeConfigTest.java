package io.kovn.node.ovs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.node.ManagementPort;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovs.vswitch.Bridge;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.OvsVswitchdProcess;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("real")
class OvsBridgeConfigTest {
    private final OvsBridgeConfig config =
            new OvsBridgeConfig("br-int", "netdev", "chassis-1", "node-a", "172.30.0.2", "unix:/run/sb.sock");

    @Test
    void theChassisExternalIdsNameTheZonesSbAndTheEncapIp() {
        assertThat(config.externalIds())
                .containsEntry("system-id", "chassis-1")
                .containsEntry("hostname", "node-a")
                .containsEntry("ovn-encap-type", "geneve")
                .containsEntry("ovn-encap-ip", "172.30.0.2")
                .containsEntry("ovn-remote", "unix:/run/sb.sock")
                .containsEntry("ovn-bridge", "br-int")
                .containsEntry("ovn-bridge-datapath-type", "netdev")
                .containsEntry("ovn-is-interconn", "true");
    }

    @Test
    void datapathIsNetdevWithoutTheKernelModule(@TempDir Path dir) throws IOException {
        assertThat(OvsBridgeConfig.detectDatapathType(dir.resolve("absent"))).isEqualTo("netdev");
        assertThat(OvsBridgeConfig.detectDatapathType(Files.createDirectory(dir.resolve("openvswitch"))))
                .isEqualTo("system");
    }

    @Test
    void applyingWaitsForVswitchdAndASecondApplyHasNothingToWrite() throws IOException {
        OvnRuntime rt = OvnRuntime.locate();
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kvo");
        Netns ns = Netns.add(
                "kvo" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)));
        try (OvsdbServerProcess server = OvsdbServerProcess.start(
                        rt, rt.vswitchSchema(), dir, "conf", OvsdbServerProcess.Options.unixOnly());
                OvsConfDb db = OvsConfDb.connect(server.socket())) {
            assertThat(db.root()).isEmpty();
            db.initialize();
            assertThat(OvsBridgeConfig.existingSystemId(db)).isEmpty();
            try (OvsVswitchdProcess vswitchd = OvsVswitchdProcess.start(rt.binDir(), server.socket(), dir, ns)) {
                config.apply(db);
                // ovs-vswitchd has applied it: the netdev bridge's internal port exists in its namespace
                assertThat(ns.linkExists("br-int")).isTrue();
                assertThat(db.root().orElseThrow().curCfg())
                        .isEqualTo(db.root().orElseThrow().nextCfg());
                assertThat(config.operations(db.ops())).isEmpty();
                config.apply(db);
                Bridge brInt = db.bridge("br-int").orElseThrow();
                assertThat(brInt.datapathType()).isEqualTo("netdev");
                assertThat(brInt.failMode()).contains(Bridge.FailMode.SECURE);
                assertThat(brInt.otherConfig()).containsEntry("disable-in-band", "true");
                assertThat(db.root().orElseThrow().externalIds()).containsAllEntriesOf(config.externalIds());
                assertThat(db.root().orElseThrow().bridges()).containsExactly(brInt.uuid());
                assertThat(OvsBridgeConfig.existingSystemId(db)).contains("chassis-1");

                // a new internal port has its device and its OpenFlow port number once the write returns
                ManagementPort mp = new ManagementPort(
                        "node-a",
                        List.of(IpPrefix.parse("10.244.1.0/24")),
                        List.of(IpPrefix.parse("10.244.0.0/16")),
                        1400,
                        List.of());
                db.transactAndWait(mp.operations(db.ops(), "br-int"));
                assertThat(db.iface(mp.interfaceName()).orElseThrow().ofport())
                        .hasValueSatisfying(n -> assertThat(n).isPositive());
                assertThat(ns.linkExists(mp.interfaceName())).isTrue();
                assertThat(db.iface(mp.interfaceName()).orElseThrow().externalIds())
                        .containsEntry("iface-id", "k8s-node-a");
                assertThat(mp.operations(db.ops(), "br-int")).isEmpty();
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
