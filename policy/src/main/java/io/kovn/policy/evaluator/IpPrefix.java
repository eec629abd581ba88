package io.kovn.policy.evaluator;

import java.util.Optional;

/**
 * A CIDR ({@code 10.0.0.0/8}, {@code ::/0}). Host bits in the text are ignored, as OVN ignores them.
 *
 * @param network the address with host bits cleared
 * @param length the prefix length
 */
public record IpPrefix(IpAddress network, int length) {

    /** Parses {@code address/length}; empty if it is not a CIDR. */
    public static Optional<IpPrefix> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        int slash = text.indexOf('/');
        if (slash <= 0) {
            return Optional.empty();
        }
        Optional<IpAddress> address = IpAddress.parse(text.substring(0, slash));
        int length;
        try {
            length = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (address.isEmpty() || length < 0 || length > (address.get().v6() ? 128 : 32)) {
            return Optional.empty();
        }
        IpAddress a = address.get();
        return Optional.of(new IpPrefix(masked(a, length), length));
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
