package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
        for (RemotePeers.Candidate c : candidates) {
            Optional<String> conflict = conflict(c.node(), local, usable);
            if (conflict.isPresent()) {
                skipped.add(new RemotePeers.Skipped(c.node().name(), conflict.get()));
            } else {
                usable.add(c);
            }
        }
        return new Result(usable, skipped);
    }

    private static Optional<String> conflict(RemoteNode node, LocalNode local, List<RemotePeers.Candidate> accepted) {
        String chassis = node.chassisId().value();
        if (node.id().equals(local.id())) {
            return Optional.of("its node id " + node.id().value() + " is node " + local.name() + "'s");
        }
        Optional<String> overlap = overlap(node.subnets(), local.subnets(), local.name());
        if (overlap.isPresent()) return overlap;
        for (RemotePeers.Candidate c : accepted) {
            RemoteNode other = c.node();
            if (node.id().equals(other.id())) {
                return Optional.of("its node id " + node.id().value() + " is node " + other.name() + "'s");
            }
            if (chassis.equals(other.chassisId().value())) {
                return Optional.of("its chassis id " + chassis + " is node " + other.name() + "'s");
            }
            overlap = overlap(node.subnets(), other.subnets(), other.name());
            if (overlap.isPresent()) return overlap;
        }
        return Optional.empty();
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
