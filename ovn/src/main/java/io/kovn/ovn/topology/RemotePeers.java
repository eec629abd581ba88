package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.TrustZoneMembership;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which remote nodes a zone programs (specification 000): only those whose chassis shares a trust zone with the local
 * chassis (both zone-less also share). The local node's own annotation is read with the same rule as everyone else's;
 * it can never widen the zone's view beyond it.
 */
public final class RemotePeers {
    private RemotePeers() {}

    /**
     * A remote node and its chassis's trust zones.
     *
     * @param node the remote node
     * @param membership the zones of its chassis (from its node's annotation)
     */
    public record Candidate(RemoteNode node, TrustZoneMembership membership) {
        public Candidate {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(membership, "membership");
        }
    }

    /**
     * A remote node left out, and why.
     *
     * @param node the node name
     * @param reason operator-readable reason
     */
    public record Skipped(String node, String reason) {}

    /**
     * The outcome of a selection.
     *
     * @param programmed remote nodes to program, sorted by name
     * @param skipped remote nodes left out, sorted by name
     */
    public record Selection(List<RemoteNode> programmed, List<Skipped> skipped) {
        public Selection {
            programmed = List.copyOf(programmed);
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * Applies the sharing rule.
     *
     * @param localChassisId the local chassis system-id, if the node agent published it
     * @param local the local chassis's membership
     * @param candidates every other node with complete annotations
     */
    public static Selection select(
            Optional<String> localChassisId, TrustZoneMembership local, Collection<Candidate> candidates) {
        List<RemoteNode> programmed = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (Candidate c : candidates.stream()
                .sorted(Comparator.comparing(c -> c.node().name()))
                .toList()) {
            String chassis = c.node().chassisId().value();
            if (localChassisId.isPresent() && localChassisId.get().equals(chassis)) {
                // The chassis is this zone's own: ovn-controller registers it locally; never a remote row.
                skipped.add(new Skipped(c.node().name(), "chassis " + chassis + " is the local chassis"));
            } else if (local instanceof TrustZoneMembership.Isolated i) {
                skipped.add(new Skipped(
                        c.node().name(), "local node isolated: " + i.error().getMessage()));
            } else if (c.membership() instanceof TrustZoneMembership.Isolated i) {
                skipped.add(new Skipped(
                        c.node().name(), "remote node isolated: " + i.error().getMessage()));
            } else if (!local.sharesWith(c.membership())) {
                skipped.add(new Skipped(
                        c.node().name(),
                        "no common trust zone (local " + describe(local) + ", remote " + describe(c.membership())
                                + ")"));
            } else {
                programmed.add(c.node());
            }
        }
        return new Selection(programmed, skipped);
    }

    private static String describe(TrustZoneMembership m) {
        return m.zones().isEmpty() ? "none" : String.join(",", m.zones());
    }
}
