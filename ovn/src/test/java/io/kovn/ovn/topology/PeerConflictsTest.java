package io.kovn.ovn.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.TrustZoneMembership;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two nodes claiming one subnet, chassis or node id: the zone's own node, then the older remote, keeps it. */
class PeerConflictsTest {
    private static final LocalNode LOCAL = ZoneTopologyTest.A; // node-a: id 2, 10.244.0.0/24

    private static RemotePeers.Candidate remote(String name, int id, String subnet, String chassis) {
        return new RemotePeers.Candidate(
                new RemoteNode(
                        name,
                        new NodeId(id),
                        List.of(IpPrefix.parse(subnet)),
                        NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0." + id + "/16\"}"),
                        NodeChassisId.parse(chassis),
                        NodeEncapIps.parse("[\"172.18.0." + id + "\"]")),
                new TrustZoneMembership.NoZones());
    }

    @Test
    void nodesThatClaimNothingOfAnotherAreAllUsable() {
        var r = PeerConflicts.resolve(
                LOCAL, List.of(remote("b", 3, "10.244.1.0/24", "cb"), remote("c", 4, "10.244.2.0/24", "cc")));
        assertThat(r.usable()).extracting(c -> c.node().name()).containsExactly("b", "c");
        assertThat(r.skipped()).isEmpty();
    }

    @Test
    void aLaterNodeClaimingWhatAnEarlierOneHoldsIsSkippedWithTheReason() {
        var r = PeerConflicts.resolve(
                LOCAL,
                List.of(
                        remote("b", 3, "10.244.1.0/24", "cb"),
                        remote("overlaps-b", 4, "10.244.1.128/25", "c4"),
                        remote("chassis-of-b", 5, "10.244.5.0/24", "cb"),
                        remote("id-of-b", 3, "10.244.6.0/24", "c6"),
                        remote("overlaps-local", 7, "10.244.0.0/16", "c7"),
                        remote("id-of-local", 2, "10.244.8.0/24", "c8"),
                        remote("fine", 9, "10.244.9.0/24", "c9")));
        assertThat(r.usable()).extracting(c -> c.node().name()).containsExactly("b", "fine");
        assertThat(r.skipped())
                .extracting(s -> s.node() + ": " + s.reason())
                .containsExactly(
                        "overlaps-b: its subnet 10.244.1.128/25 overlaps node b's 10.244.1.0/24",
                        "chassis-of-b: its chassis id cb is node b's",
                        "id-of-b: its node id 3 is node b's",
                        "overlaps-local: its subnet 10.244.0.0/16 overlaps node node-a's 10.244.0.0/24",
                        "id-of-local: its node id 2 is node node-a's");
    }

    @Test
    void aSkippedNodeTakesNothing() {
        // overlaps-local is skipped, so c (which only overlaps the skipped node) keeps its subnet
        var r = PeerConflicts.resolve(
                LOCAL,
                List.of(remote("overlaps-local", 7, "10.244.0.0/16", "c7"), remote("c", 4, "10.244.2.0/24", "cc")));
        assertThat(r.usable()).extracting(c -> c.node().name()).containsExactly("c");
    }
}
