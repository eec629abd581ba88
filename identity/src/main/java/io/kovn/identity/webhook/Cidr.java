package io.kovn.identity.webhook;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * An IPv4 or IPv6 prefix such as {@code 10.244.1.0/24}, parsed without name resolution.
 *
 * @param network the address bytes (4 or 16)
 * @param prefixLength the number of leading bits that form the network
 */
public record Cidr(byte[] network, int prefixLength) {
    // Literal addresses only: InetAddress would otherwise try DNS for anything else.
    private static final Pattern V4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern V6 = Pattern.compile("[0-9a-fA-F:.]{2,45}");

    /** Parses {@code address/prefix}; a bare address is a host prefix (/32 or /128). */
    public static Cidr parse(String text) {
        int slash = text.indexOf('/');
        byte[] address = address(slash < 0 ? text : text.substring(0, slash));
        int max = address.length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? max : Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad prefix length in " + text);
        }
        if (prefix < 0 || prefix > max) {
            throw new IllegalArgumentException("bad prefix length in " + text);
        }
        return new Cidr(address, prefix);
    }

    /** Parses a literal IPv4 or IPv6 address. */
    public static byte[] address(String text) {
        boolean v4 = V4.matcher(text).matches();
        if (!v4 && !(text.contains(":") && V6.matcher(text).matches())) {
            throw new IllegalArgumentException("not an IP address: " + text);
        }
        try {
            byte[] bytes = InetAddress.getByName(text).getAddress();
            if (v4 != (bytes.length == 4)) {
                throw new IllegalArgumentException("not an IP address: " + text);
            }
            return bytes;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + text);
        }
    }

    /** Whether the address (same family) lies inside this prefix. */
    public boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        int bits = network.length * 8;
        BigInteger mask = BigInteger.ONE
                .shiftLeft(bits)
                .subtract(BigInteger.ONE)
                .xor(BigInteger.ONE.shiftLeft(bits - prefixLength).subtract(BigInteger.ONE));
        return new BigInteger(1, address).and(mask).equals(new BigInteger(1, network).and(mask));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr c && c.prefixLength == prefixLength && Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(network) * 31 + prefixLength;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
