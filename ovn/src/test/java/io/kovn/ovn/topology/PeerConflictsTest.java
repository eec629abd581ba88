package io.kovn.ovn.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.TrustZoneMembership;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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

    @Test
    void theIndexedResolutionAgreesWithAPairwiseScanOnRandomClaims() {
        SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 1_000; round++) {
            List<RemotePeers.Candidate> candidates = new ArrayList<>();
            int n = random.nextInt(40);
            for (int i = 0; i < n; i++) {
                List<IpPrefix> subnets = new ArrayList<>();
                for (int k = 1 + random.nextInt(2); k > 0; k--) {
                    subnets.add(randomSubnet(random));
                }
                candidates.add(new RemotePeers.Candidate(
                        new RemoteNode(
                                "n" + i,
                                new NodeId(2 + random.nextInt(30)),
                                subnets,
                                NodeTransitSwitchPortIfaddr.parse("{\"ipv4\":\"100.88.0.9/16\"}"),
                                NodeChassisId.parse("c" + random.nextInt(30)),
                                NodeEncapIps.parse("[\"172.18.0.9\"]")),
                        new TrustZoneMembership.NoZones()));
            }
            var r = PeerConflicts.resolve(LOCAL, candidates);
            List<String> expected = pairwise(LOCAL, candidates);
            List<String> actual = new ArrayList<>();
            r.usable().forEach(c -> actual.add(c.node().name() + ": usable"));
            r.skipped().forEach(s -> actual.add(s.node() + ": " + s.reason()));
            assertThat(actual)
                    .as(
                            "round %d: %s",
                            round,
                            candidates.stream()
                                    .map(c -> c.node().name() + " id "
                                            + c.node().id().value() + " chassis "
                                            + c.node().chassisId().value() + " "
                                            + c.node().subnets())
                                    .toList())
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(r.usable())
                    .containsExactlyElementsOf(candidates.stream()
                            .filter(c -> expected.contains(c.node().name() + ": usable"))
                            .toList());
        }
    }

    /** IPv4 prefixes of many lengths (some with host bits set) in a small space, so that many overlap; some IPv6. */
    private static IpPrefix randomSubnet(SplittableRandom random) {
        if (random.nextInt(8) == 0) {
            return IpPrefix.parse(
                    "fd00:" + random.nextInt(4) + "::" + random.nextInt(3) + "/" + (30 + random.nextInt(99)));
        }
        int[] lengths = {14, 16, 20, 23, 24, 25, 26, 32};
        return IpPrefix.parse("10." + (244 + random.nextInt(2)) + "." + random.nextInt(12) + "." + random.nextInt(256)
                + "/" + lengths[random.nextInt(lengths.length)]);
    }

    /** The resolution as first written: each candidate against the local node, then every accepted one in order. */
    private static List<String> pairwise(LocalNode local, List<RemotePeers.Candidate> candidates) {
        List<RemoteNode> accepted = new ArrayList<>();
        List<String> out = new ArrayList<>();
        for (RemotePeers.Candidate c : candidates) {
            RemoteNode node = c.node();
            String reason = null;
            if (node.id().equals(local.id())) {
                reason = "its node id " + node.id().value() + " is node " + local.name() + "'s";
            }
            if (reason == null) {
                reason = overlap(node.subnets(), local.subnets(), local.name());
            }
            for (int i = 0; reason == null && i < accepted.size(); i++) {
                RemoteNode other = accepted.get(i);
                if (node.id().equals(other.id())) {
                    reason = "its node id " + node.id().value() + " is node " + other.name() + "'s";
                } else if (node.chassisId().value().equals(other.chassisId().value())) {
                    reason = "its chassis id " + node.chassisId().value() + " is node " + other.name() + "'s";
                } else {
                    reason = overlap(node.subnets(), other.subnets(), other.name());
                }
            }
            if (reason == null) {
                accepted.add(node);
                out.add(node.name() + ": usable");
            } else {
                out.add(node.name() + ": " + reason);
            }
        }
        return out;
    }

    private static String overlap(List<IpPrefix> mine, List<IpPrefix> theirs, String owner) {
        for (IpPrefix a : mine) {
            for (IpPrefix b : theirs) {
                if (a.overlaps(b)) {
                    return "its subnet " + a + " overlaps node " + owner + "'s " + b;
                }
            }
        }
        return null;
    }
}
