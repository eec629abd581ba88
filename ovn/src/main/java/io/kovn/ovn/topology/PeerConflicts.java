package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeId;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Remote nodes that claim what another node holds: a node subnet overlapping another node's, or another node's chassis
 * id or node id. Annotations are written by the cluster manager and each node's agent; a second leader, a restored
 * backup or a compromised node could make two nodes claim the same thing, and programming both would route one node's
 * pods to the other or bind two tunnels to one chassis. The zone's own node always wins; among remote nodes the one
 * seen first in {@code candidates}' order (oldest first, as the caller sorts them) wins, and the others are skipped
 * with the reason. Pure.
 */
public final class PeerConflicts {
    private PeerConflicts() {}

    /** {@code candidates} without those that conflict, and those that do. */
    public record Result(List<RemotePeers.Candidate> usable, List<RemotePeers.Skipped> skipped) {
        public Result {
            usable = List.copyOf(usable);
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * @param local the zone's own node (a remote node with the local chassis id is {@link RemotePeers}' to skip)
     * @param candidates remote nodes, oldest first
     */
    public static Result resolve(LocalNode local, List<RemotePeers.Candidate> candidates) {
        List<RemotePeers.Candidate> usable = new ArrayList<>();
        List<RemotePeers.Skipped> skipped = new ArrayList<>();
        Holdings held = new Holdings();
        for (RemotePeers.Candidate c : candidates) {
            Optional<String> conflict = conflict(c.node(), local, held);
            if (conflict.isPresent()) {
                skipped.add(new RemotePeers.Skipped(c.node().name(), conflict.get()));
            } else {
                usable.add(c);
                held.add(c.node());
            }
        }
        return new Result(usable, skipped);
    }

    private static Optional<String> conflict(RemoteNode node, LocalNode local, Holdings held) {
        if (node.id().equals(local.id())) {
            return Optional.of("its node id " + node.id().value() + " is node " + local.name() + "'s");
        }
        Optional<String> overlap = overlap(node.subnets(), local.subnets(), local.name());
        if (overlap.isPresent()) return overlap;
        // the oldest accepted node it claims anything of names the reason, as a scan of them in order would
        return held.firstClaimedBy(node).flatMap(other -> conflict(node, other));
    }

    /** What {@code node} claims of {@code other}'s: its node id, then its chassis id, then a subnet. */
    private static Optional<String> conflict(RemoteNode node, RemoteNode other) {
        if (node.id().equals(other.id())) {
            return Optional.of("its node id " + node.id().value() + " is node " + other.name() + "'s");
        }
        String chassis = node.chassisId().value();
        if (chassis.equals(other.chassisId().value())) {
            return Optional.of("its chassis id " + chassis + " is node " + other.name() + "'s");
        }
        return overlap(node.subnets(), other.subnets(), other.name());
    }

    /**
     * The accepted nodes, indexed by node id, chassis id and subnet: finding the first one a candidate claims anything
     * of takes a few map lookups (and one per accepted subnet inside the candidate's), not a scan of them all.
     */
    private static final class Holdings {
        private final List<RemoteNode> accepted = new ArrayList<>();
        private final Map<NodeId, Integer> byId = new HashMap<>();
        private final Map<String, Integer> byChassis = new HashMap<>();
        /** By network (host bits cleared), in address order: the first accepted node holding it. */
        private final NavigableMap<IpPrefix, Integer> bySubnet = new TreeMap<>();
        /** The prefix lengths in {@link #bySubnet}, shortest first: the only ones a containing network can have. */
        private final NavigableSet<Integer> lengths = new TreeSet<>();

        void add(RemoteNode node) {
            int index = accepted.size();
            accepted.add(node);
            byId.putIfAbsent(node.id(), index);
            byChassis.putIfAbsent(node.chassisId().value(), index);
            for (IpPrefix subnet : node.subnets()) {
                bySubnet.putIfAbsent(subnet.network(), index);
                lengths.add(subnet.length());
            }
        }

        /** The first accepted node with {@code node}'s node id, chassis id or a subnet overlapping one of its. */
        Optional<RemoteNode> firstClaimedBy(RemoteNode node) {
            int first = Math.min(
                    byId.getOrDefault(node.id(), Integer.MAX_VALUE),
                    byChassis.getOrDefault(node.chassisId().value(), Integer.MAX_VALUE));
            for (IpPrefix subnet : node.subnets()) {
                first = Math.min(first, firstOverlapping(subnet));
            }
            return first == Integer.MAX_VALUE ? Optional.empty() : Optional.of(accepted.get(first));
        }

        /**
         * Two prefixes overlap when one contains the other: the networks containing {@code subnet} are its own network
         * at a shorter length (one of those held), and those inside it start within it.
         */
        private int firstOverlapping(IpPrefix subnet) {
            int first = Integer.MAX_VALUE;
            for (int length : lengths.headSet(subnet.length(), false)) {
                first = Math.min(
                        first, bySubnet.getOrDefault(subnet.withLength(length).network(), Integer.MAX_VALUE));
            }
            IpPrefix network = subnet.network();
            IpPrefix last = new IpPrefix(
                    network.addressAt(network.size().subtract(BigInteger.ONE)),
                    network.family().bits());
            for (int index :
                    bySubnet.subMap(network.withLength(0), true, last, true).values()) {
                first = Math.min(first, index);
            }
            return first;
        }
    }

    private static Optional<String> overlap(List<IpPrefix> mine, List<IpPrefix> theirs, String owner) {
        for (IpPrefix a : mine) {
            for (IpPrefix b : theirs) {
                if (a.overlaps(b)) {
                    return Optional.of("its subnet " + a + " overlaps node " + owner + "'s " + b);
                }
            }
        }
        return Optional.empty();
    }
}
