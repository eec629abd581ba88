package io.kovn.policy.evaluator;

import io.kovn.ovn.annotations.IpLiterals;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * An IPv4 or IPv6 address as two longs, so prefix tests are a mask and a compare.
 *
 * @param v6 whether this is an IPv6 address
 * @param hi the upper 64 bits (IPv6 only; 0 for IPv4)
 * @param lo the lower 64 bits (IPv4: the 32-bit address, unsigned)
 */
public record IpAddress(boolean v6, long hi, long lo) {

    /** Parses an address literal as {@link IpLiterals#parse} does; empty if {@code text} is not one. */
    public static Optional<IpAddress> parse(String text) {
        InetAddress address;
        try {
            address = IpLiterals.parse(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.of(of(address));
    }

    /** The address of a parsed {@link InetAddress}; IPv4-mapped IPv6 addresses come back as IPv4. */
    public static IpAddress of(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return new IpAddress(false, 0, toLong(b, 0, 4));
        }
        if (!(address instanceof Inet6Address)) {
            throw new IllegalArgumentException("not an IP address: " + address);
        }
        long hi = toLong(b, 0, 8);
        long lo = toLong(b, 8, 8);
        if (hi == 0 && lo >>> 32 == 0xffffL) {
            return new IpAddress(false, 0, lo & 0xffffffffL);
        }
        return new IpAddress(true, hi, lo);
    }

    private static long toLong(byte[] b, int from, int length) {
        long v = 0;
        for (int i = from; i < from + length; i++) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }

    /** The usual text form: {@code 10.244.1.3}; IPv6 compressed as RFC 5952 says ({@code fd00::1}). */
    @Override
    public String toString() {
        if (!v6) {
            return ((lo >>> 24) & 0xff) + "." + ((lo >>> 16) & 0xff) + "." + ((lo >>> 8) & 0xff) + "." + (lo & 0xff);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 4; i++) {
            groups[i] = (int) ((hi >>> (48 - 16 * i)) & 0xffff);
            groups[i + 4] = (int) ((lo >>> (48 - 16 * i)) & 0xffff);
        }
        int bestStart = -1;
        int bestLength = 1; // a single zero group is not compressed
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }
}
