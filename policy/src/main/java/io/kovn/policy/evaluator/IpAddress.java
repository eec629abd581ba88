package io.kovn.policy.evaluator;

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

    /** Parses an address literal without any name lookup; empty if {@code text} is not one. */
    public static Optional<IpAddress> parse(String text) {
        if (text == null || text.isEmpty() || !(text.indexOf(':') >= 0 || Character.isDigit(text.charAt(0)))) {
            return Optional.empty();
        }
        InetAddress address;
        try {
            address = InetAddress.ofLiteral(text);
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
        return new IpAddress(true, toLong(b, 0, 8), toLong(b, 8, 8));
    }

    private static long toLong(byte[] b, int from, int length) {
        long v = 0;
        for (int i = from; i < from + length; i++) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }

    /** The usual text form ({@code 10.244.1.3}, {@code fd00::1}). */
    @Override
    public String toString() {
        byte[] bytes = v6
                ? java.nio.ByteBuffer.allocate(16).putLong(hi).putLong(lo).array()
                : java.nio.ByteBuffer.allocate(4).putInt((int) lo).array();
        try {
            return InetAddress.getByAddress(bytes).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("a 4- or 16-byte address is always valid", e);
        }
    }
}
