package io.kovn.node.ovs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovs.vswitch.Interface;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.OvsdbServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ovs-vsctl's commands as conf.db operations, against a real ovsdb-server with the Open_vSwitch schema (no
 * ovs-vswitchd).
 */
@Tag("real")
class ConfDbOpsTest {
    private Path dir;
    private OvsdbServerProcess server;
    private OvsConfDb db;

    @BeforeEach
    void start() throws IOException {
        OvnRuntime rt = OvnRuntime.locate();
        dir = Files.createTempDirectory(Path.of("/tmp"), "kvc");
        server = OvsdbServerProcess.start(rt, rt.vswitchSchema(), dir, "conf", OvsdbServerProcess.Options.unixOnly());
        db = OvsConfDb.connect(server.socket(), Duration.ofSeconds(2));
        db.initialize();
        db.transact(db.ops().bridge("br-int", "netdev", null, Map.of()));
    }

    @AfterEach
    void stop() throws IOException {
        db.close();
        server.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void aNewBridgeHasItsInternalPortAndAnExistingOneIsLeftAlone() {
        assertThat(db.bridge("br-int"))
                .hasValueSatisfying(b -> assertThat(db.interfaces(b))
                        .extracting(Interface::name, Interface::type)
                        .containsExactly(Tuple.tuple("br-int", "internal")));
        assertThat(db.ops().bridge("br-int", "netdev", null, Map.of())).isEmpty();
        db.transact(db.ops().bridge("br-int", "system", null, Map.of("disable-in-band", "true")));
        assertThat(db.bridge("br-int").orElseThrow().datapathType()).isEqualTo("system");
        assertThat(db.bridge("br-int").orElseThrow().otherConfig())
                .containsExactly(Map.entry("disable-in-band", "true"));
    }

    @Test
    void addingAPortTwiceWritesOnlyTheExternalIdsThatChangedAndKeepsTheOthers() {
        db.transact(db.ops().port("br-int", "veth1", null, null, Map.of("iface-id", "ns_a", "sandbox", "c1")));
        assertThat(db.bridgeOfPort("veth1").orElseThrow().name()).isEqualTo("br-int");
        assertThat(db.ops().port("br-int", "veth1", null, null, Map.of("iface-id", "ns_a")))
                .isEmpty();
        var update = db.ops().port("br-int", "veth1", null, null, Map.of("iface-id", "ns_b"));
        assertThat(update).hasSize(1);
        db.transact(update);
        assertThat(db.iface("veth1").orElseThrow().externalIds())
                .containsOnly(Map.entry("iface-id", "ns_b"), Map.entry("sandbox", "c1"));
    }

    @Test
    void aPortOnAnotherBridgeIsNeitherAddedNorDeletedThroughThisOne() {
        db.transact(db.ops().bridge("br-phy", "netdev", null, Map.of()));
        db.transact(db.ops().port("br-phy", "eth0", null, null, Map.of()));
        assertThatThrownBy(() -> db.ops().port("br-int", "eth0", null, null, Map.of()))
                .hasMessageContaining("br-phy");
        assertThatThrownBy(() -> db.ops().deletePort("br-int", "eth0")).hasMessageContaining("br-phy");
    }

    @Test
    void deletingAPortRemovesItsRowsAndAMissingPortIsNoError() {
        db.transact(db.ops().port("br-int", "veth1", null, null, Map.of("iface-id", "ns_a")));
        db.transact(db.ops().deletePort("br-int", "veth1"));
        assertThat(db.port("veth1")).isEmpty();
        assertThat(db.iface("veth1")).isEmpty();
        assertThat(db.ops().deletePort("br-int", "veth1")).isEmpty();
    }

    @Test
    void waitingForVswitchdFailsWithinTheTimeoutWhenNoneRunsButNothingToWriteNeverWaits() {
        db.transactAndWait(db.ops().rootExternalIds(Map.of()));
        assertThatThrownBy(() -> db.transactAndWait(db.ops().rootExternalIds(Map.of("ovn-encap-ip", "10.0.0.1"))))
                .hasMessageContaining("ovs-vswitchd did not apply");
        // the change itself was committed, as ovs-vsctl's is when its wait times out
        assertThat(db.root().orElseThrow().externalIds()).containsEntry("ovn-encap-ip", "10.0.0.1");
        assertThat(db.root().orElseThrow().nextCfg()).isEqualTo(1);
    }

    @Test
    void awaitingAnInterfaceSeesAnotherClientsWrite() throws Exception {
        db.transact(db.ops().port("br-int", "veth1", null, null, Map.of("iface-id", "ns_a")));
        try (OvsConfDb other = OvsConfDb.connect(server.socket())) {
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
                other.transact(other.ops().port("br-int", "veth1", null, null, Map.of("ovn-installed", "true")));
            });
            assertThat(db.awaitInterface(
                            "veth1", i -> "true".equals(i.externalIds().get("ovn-installed")), Duration.ofSeconds(5)))
                    .isTrue();
        }
        assertThat(db.awaitInterface("veth2", i -> true, Duration.ofMillis(100)))
                .isFalse();
    }
}
