package io.kovn.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.runtime.net.Command;
import io.kovn.runtime.net.Netns;
import io.kovn.runtime.testing.OvnDatabases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** ovs-vswitchd and ovn-controller as real processes inside a test namespace. */
@Tag("real")
class NodeDaemonsTest {
    private final OvnRuntime rt = OvnRuntime.locate();
    private final String prefix =
            "kvd" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
    private Path dir;
    private Netns ns;
    private Netns ns2;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory(Path.of("/tmp"), "kvd");
        ns = Netns.add(prefix + "n");
        ns2 = Netns.add(prefix + "m");
    }

    @AfterEach
    void tearDown() throws IOException {
        ns.delete();
        ns2.delete();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        assertThat(Netns.list()).noneMatch(n -> n.startsWith(prefix));
    }

    private OvsdbServerProcess confDb(Path folder) throws IOException {
        Files.createDirectories(folder);
        OvsdbServerProcess db =
                OvsdbServerProcess.start(rt, rt.vswitchSchema(), folder, "conf", OvsdbServerProcess.Options.unixOnly());
        vsctl(db, "--no-wait", "init");
        return db;
    }

    private String vsctl(OvsdbServerProcess db, String... args) {
        List<String> argv =
                new ArrayList<>(List.of(rt.bin("ovs-vsctl").toString(), "--db=" + db.unixEndpoint(), "--timeout=10"));
        argv.addAll(List.of(args));
        return Command.run(argv);
    }

    @Test
    void twoSwitchesWithTheirOwnRunDirsAndNamespacesCoexistAndStopOnClose() throws IOException {
        try (OvsdbServerProcess db1 = confDb(dir.resolve("n1"));
                OvsdbServerProcess db2 = confDb(dir.resolve("n2"))) {
            OvsVswitchdProcess v1 = OvsVswitchdProcess.start(rt, db1, dir.resolve("n1"), ns);
            long pid1;
            try (v1;
                    OvsVswitchdProcess v2 =
                            OvsVswitchdProcess.start(rt.binDir(), db2.socket(), dir.resolve("n2"), ns2)) {
                pid1 = v1.pid();
                vsctl(db1, "add-br", "br-a", "--", "set", "Bridge", "br-a", "datapath_type=netdev");
                vsctl(db2, "add-br", "br-b", "--", "set", "Bridge", "br-b", "datapath_type=netdev");
                // each bridge's management socket lands in its own node's run directory
                assertThat(dir.resolve("n1/br-a.mgmt")).exists();
                assertThat(dir.resolve("n2/br-b.mgmt")).exists();
                assertThat(ns.linkExists("br-a")).isTrue();
                assertThat(ns2.linkExists("br-b")).isTrue();
                assertThat(Netns.root().linkExists("br-a")).isFalse();
                assertThat(v2.appctl("dpif/show")).contains("br-b");
            }
            assertThat(v1.isAlive()).isFalse();
            assertThat(ProcessHandle.of(pid1)).isEmpty();
        }
    }

    @Test
    void ovnControllerRegistersItsChassisAndKillEndsIt() throws IOException {
        Path node = dir.resolve("n");
        // ovn-controller needs a SB that northd has initialised (it crashes on an empty one)
        try (OvnDatabases zone = OvnDatabases.start(OvnDatabases.Config.withNorthd());
                OvsdbServerProcess db = confDb(node);
                OvsVswitchdProcess vswitchd = OvsVswitchdProcess.start(rt.binDir(), db.socket(), node, ns)) {
            vsctl(
                    db,
                    "add-br",
                    "br-int",
                    "--",
                    "set",
                    "Bridge",
                    "br-int",
                    "datapath_type=netdev",
                    "--",
                    "set",
                    "Open_vSwitch",
                    ".",
                    "external_ids:system-id=chassis-x",
                    "external_ids:ovn-encap-type=geneve",
                    "external_ids:ovn-encap-ip=10.1.2.3",
                    "external_ids:ovn-remote=\"" + zone.sb().unixEndpoint() + "\"",
                    "external_ids:ovn-bridge-datapath-type=netdev");
            OvnControllerProcess controller = OvnControllerProcess.start(rt, db, node, ns);
            // blocks on the SB monitor until ovn-controller has registered its chassis
            Command.run(
                    rt.bin("ovn-sbctl").toString(),
                    "--db=" + zone.sb().unixEndpoint(),
                    "--timeout=10",
                    "wait-until",
                    "Chassis",
                    "chassis-x");
            assertThat(controller.appctl("connection-status").strip()).isEqualTo("connected");
            controller.kill();
            assertThat(controller.isAlive()).isFalse();
            assertThat(vswitchd.isAlive()).isTrue();
        }
    }

    @Test
    void aDaemonThatCannotStartReportsItsLog() throws IOException {
        Path node = dir.resolve("bad");
        Files.createDirectories(node);
        assertThatThrownBy(() -> OvsVswitchdProcess.start(
                        rt.binDir(), node.resolve("no-such.sock"), node, Netns.named(prefix + "missing")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ovs-vswitchd exited");
    }
}
