package io.kovn.policy.evaluator;

import io.kovn.ovn.annotations.IpPrefix;
import java.util.Optional;

/**
 * A CIDR ({@code 10.0.0.0/8}, {@code ::/0}) as the evaluator tests it: the network with host bits cleared, so
 * containment is a mask and a compare. Host bits in the text are ignored, as OVN ignores them.
 *
 * @param network the address with host bits cleared
 * @param length the prefix length
 */
public record MaskedPrefix(IpAddress network, int length) {

    /** Parses {@code address/length} as {@link IpPrefix#parse} does; empty if it is not a CIDR. */
    public static Optional<MaskedPrefix> parse(String text) {
        IpPrefix prefix;
        try {
            prefix = IpPrefix.parse(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        IpAddress a = IpAddress.of(prefix.address());
        int length = prefix.length();
        if (length > (a.v6() ? 128 : 32)) {
            return Optional.empty(); // IPv4-mapped text with an IPv6 length: the evaluator sees IPv4
        }
        return Optional.of(new MaskedPrefix(masked(a, length), length));
    }

    /** Whether {@code address} lies inside this prefix (never across families). */
    public boolean contains(IpAddress address) {
        return address.v6() == network.v6() && masked(address, length).equals(network);
    }

    private static IpAddress masked(IpAddress a, int length) {
        if (!a.v6()) {
            long mask = length == 0 ? 0 : (0xffffffffL << (32 - length)) & 0xffffffffL;
            return new IpAddress(false, 0, a.lo() & mask);
        }
        long hiMask = length >= 64 ? -1L : length == 0 ? 0 : -1L << (64 - length);
        long loMask = length <= 64 ? 0 : length == 128 ? -1L : -1L << (128 - length);
        return new IpAddress(true, a.hi() & hiMask, a.lo() & loMask);
    }
}
