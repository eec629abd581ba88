package io.kovn.policy.evaluator;

import java.util.List;
import java.util.Set;

/**
 * A rule's compiled peers. Pods are a bitset over the snapshot's networked pods (already including pods whose IP falls
 * in a {@code networks} CIDR or ipBlock, since OVN matches pod IPs too); bare IPs are tested against CIDRs, ipBlocks
 * and node addresses.
 */
final class PeerMatcher {
    /** An ipBlock: inside {@code cidr} and in none of {@code except}. */
    record Block(MaskedPrefix cidr, List<MaskedPrefix> except) {
        boolean contains(IpAddress ip) {
            if (!cidr.contains(ip)) {
                return false;
            }
            for (MaskedPrefix e : except) {
                if (e.contains(ip)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final boolean all;
    private final long[] pods;
    private final List<Block> blocks;
    private final Set<IpAddress> addresses;

    /**
     * @param all matches every pod and every IP (a NetworkPolicy rule without peers, a fail-closed rule)
     * @param pods selected networked pods
     * @param blocks CIDRs (ANP {@code networks}, NetworkPolicy ipBlocks)
     * @param addresses single addresses ({@code nodes} peers' InternalIPs)
     */
    PeerMatcher(boolean all, long[] pods, List<Block> blocks, Set<IpAddress> addresses) {
        this.all = all;
        this.pods = pods;
        this.blocks = List.copyOf(blocks);
        this.addresses = Set.copyOf(addresses);
    }

    boolean matches(Target target) {
        if (all) {
            return true;
        }
        if (target.pod() >= 0) {
            return Bits.get(pods, target.pod());
        }
        return matchesIp(target.ip());
    }

    /** Whether a bare IP is a peer (pod IPs are answered by the bitset instead). */
    boolean matchesIp(IpAddress ip) {
        if (all) {
            return true;
        }
        if (ip == null) {
            return false;
        }
        if (addresses.contains(ip)) {
            return true;
        }
        for (Block b : blocks) {
            if (b.contains(ip)) {
                return true;
            }
        }
        return false;
    }
}
