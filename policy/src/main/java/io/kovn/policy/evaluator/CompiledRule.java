package io.kovn.policy.evaluator;

/** One rule ready for evaluation: who it is (for the walkthrough), what it does, and its compiled peers and ports. */
final class CompiledRule {
    static final int MATCH = 0;
    static final int NO_PEER = 1;
    static final int NO_PORT = 2;

    final int id;
    final Tier tier;
    /** {@code ANP cluster-control ingress rule 1 "allow-from-monitoring" (Allow)}. */
    final String label;
    /** spec.priority for ANP rules, -1 otherwise. */
    final int priority;

    final RuleAction action;
    final PeerMatcher peers;
    final PortMatcher ports;
    /** Destination pods a named port may resolve on; null = any destination pod (ingress, NetworkPolicy). */
    final long[] namedPortPods;

    CompiledRule(
            int id,
            Tier tier,
            String label,
            int priority,
            RuleAction action,
            PeerMatcher peers,
            PortMatcher ports,
            long[] namedPortPods) {
        this.id = id;
        this.tier = tier;
        this.label = label;
        this.priority = priority;
        this.action = action;
        this.peers = peers;
        this.ports = ports;
        this.namedPortPods = namedPortPods;
    }

    /** {@link #MATCH}, {@link #NO_PEER} or {@link #NO_PORT}. */
    int match(Target peer, Target destination, int protocol, int port, CompiledSnapshot snapshot) {
        if (!peers.matches(peer)) {
            return NO_PEER;
        }
        if (ports.any || ports.matchesNumber(protocol, port)) {
            return MATCH;
        }
        int dst = destination.pod();
        if (ports.namedIds.length > 0
                && dst >= 0
                && (namedPortPods == null || Bits.get(namedPortPods, dst))
                && snapshot.hasNamedPort(dst, ports.namedIds, protocol, port)) {
            return MATCH;
        }
        return NO_PORT;
    }
}
