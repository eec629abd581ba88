package io.kovn.controller.connect;

import io.kovn.controller.network.Network;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which pairs of a ClusterNetworkConnect's networks are connected: every pair of distinct selected networks, except
 * that a network whose subnets overlap those of a selected network of a lower id is connected to none (the reference
 * refuses the whole CNC: a router could not tell their addresses apart). The cluster manager reports overlapping pairs
 * in the CNC's condition; zones program every other pair. Pure.
 */
public final class ConnectedPairs {
    private ConnectedPairs() {}

    /** Two networks, the one with the lower id first. */
    public record Pair(Network a, Network b) {}

    /** The pairs of these networks whose subnets overlap, in id order (by {@code a}, then {@code b}). */
    public static List<Pair> overlapping(List<Network> networks) {
        List<Network> sorted = networks.stream()
                .sorted(Comparator.comparingInt(Network::id))
                .distinct()
                .toList();
        List<Pair> out = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            for (int j = i + 1; j < sorted.size(); j++) {
                if (overlap(sorted.get(i), sorted.get(j)).isPresent()) out.add(new Pair(sorted.get(i), sorted.get(j)));
            }
        }
        return out;
    }

    /**
     * Whether {@code a} and {@code b} are connected: both selected, distinct, and neither overlaps a selected network
     * of a lower id (so not each other either). A network overlapping an older one is connected to none: a third
     * network connected to both could not tell their addresses apart.
     */
    public static boolean connects(Network a, Network b, List<Network> selected) {
        return a.id() != b.id()
                && selected.contains(a)
                && selected.contains(b)
                && !shadowed(a, selected)
                && !shadowed(b, selected)
                && overlap(a, b).isEmpty();
    }

    /** Whether {@code n} overlaps a selected network of a lower id. */
    public static boolean shadowed(Network n, List<Network> selected) {
        return selected.stream().anyMatch(o -> o.id() < n.id() && overlap(n, o).isPresent());
    }

    /** The first subnet of {@code a} and of {@code b} that overlap, if any. */
    static Optional<List<IpPrefix>> overlap(Network a, Network b) {
        for (IpPrefix x : a.cidrs()) {
            for (IpPrefix y : b.cidrs()) {
                if (x.overlaps(y)) return Optional.of(List.of(x, y));
            }
        }
        return Optional.empty();
    }
}
