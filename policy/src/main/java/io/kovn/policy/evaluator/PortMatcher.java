package io.kovn.policy.evaluator;

import io.kovn.policy.match.Protocol;
import java.util.ArrayList;
import java.util.List;

/**
 * A rule's compiled {@code ports}: every port, or inclusive ranges per protocol (single ports are ranges of one) plus
 * named ports (interned ids, resolved on the destination pod at evaluation). A rule whose ports were all invalid
 * matches no port, as the translation then emits no ACL.
 */
final class PortMatcher {
    /** No {@code ports}: all ports and protocols. */
    static final PortMatcher ANY = new PortMatcher(true, new int[Protocol.values().length][], new int[0]);

    final boolean any;
    /** By protocol ordinal: start,end pairs; null when the protocol has no numeric entry. */
    private final int[][] ranges;
    /** Interned named-port ids. */
    final int[] namedIds;

    PortMatcher(boolean any, int[][] ranges, int[] namedIds) {
        this.any = any;
        this.ranges = ranges;
        this.namedIds = namedIds;
    }

    /** Whether a numeric entry covers the port (never one of ICMP, which has no ports). */
    boolean matchesNumber(int protocol, int port) {
        if (protocol >= ranges.length) {
            return false;
        }
        int[] r = ranges[protocol];
        if (r == null) {
            return false;
        }
        for (int i = 0; i < r.length; i += 2) {
            if (port >= r[i] && port <= r[i + 1]) {
                return true;
            }
        }
        return false;
    }

    /** Collects numeric entries and named ports while compiling one rule. */
    static final class Builder {
        private final List<List<Integer>> ranges = new ArrayList<>();
        private final List<Integer> named = new ArrayList<>();

        Builder() {
            for (int i = 0; i < Protocol.values().length; i++) {
                ranges.add(new ArrayList<>());
            }
        }

        Builder range(Protocol protocol, int start, int end) {
            ranges.get(protocol.ordinal()).add(start);
            ranges.get(protocol.ordinal()).add(end);
            return this;
        }

        Builder named(int id) {
            named.add(id);
            return this;
        }

        PortMatcher build() {
            int[][] r = new int[Protocol.values().length][];
            for (int p = 0; p < r.length; p++) {
                if (!ranges.get(p).isEmpty()) {
                    r[p] = ranges.get(p).stream().mapToInt(Integer::intValue).toArray();
                }
            }
            return new PortMatcher(
                    false,
                    r,
                    named.stream().mapToInt(Integer::intValue).distinct().toArray());
        }
    }
}
