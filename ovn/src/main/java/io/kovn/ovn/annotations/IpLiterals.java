package io.kovn.ovn.annotations;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Textual IP addresses without name resolution: parse literals only, format IPv6 in the RFC 5952 canonical form
 * ({@code fd97::2}) that OVN and the reference print.
 */
public final class IpLiterals {
    private static final Pattern DOTTED_QUAD = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    // RFC 4291 groups: at most four hex digits, an optional dotted-quad tail (ofLiteral takes "00001::").
    private static final Pattern IPV6_TEXT =
            Pattern.compile("([0-9a-fA-F]{0,4}:)+([0-9a-fA-F]{0,4}|[0-9]{1,3}(\\.[0-9]{1,3}){3})");

    private IpLiterals() {}

    /**
     * Parses an IPv4 or IPv6 literal; never performs a DNS lookup. The family is the text's, as in OVN matches:
     * IPv4-mapped IPv6 text ({@code ::ffff:10.0.0.1}) is an IPv6 address.
     *
     * @throws IllegalArgumentException naming the input when it is not an address literal
     */
    public static InetAddress parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty IP address");
        }
        if (text.indexOf('%') >= 0) {
            throw new IllegalArgumentException("scoped IPv6 address not allowed: \"" + text + "\"");
        }
        // Only the four-part dotted quad: the BSD short forms ("10.244.0") are typos here.
        if (text.indexOf(':') < 0
                ? !DOTTED_QUAD.matcher(text).matches()
                : !IPV6_TEXT.matcher(text).matches()) {
            throw new IllegalArgumentException("not an IP address: \"" + text + "\"");
        }
        InetAddress address;
        try {
            address = InetAddress.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an IP address: \"" + text + "\"");
        }
        return address instanceof Inet4Address v4 && text.indexOf(':') >= 0 ? mapped(v4) : address;
    }

    private static InetAddress mapped(Inet4Address v4) {
        byte[] bytes = new byte[16];
        bytes[10] = (byte) 0xff;
        bytes[11] = (byte) 0xff;
        System.arraycopy(v4.getAddress(), 0, bytes, 12, 4);
        try {
            return Inet6Address.getByAddress(null, bytes, -1);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The canonical text of an address: dotted quad, or RFC 5952 compressed lower-case IPv6. */
    public static String format(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address.getHostAddress();
        }
        byte[] b = address.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        // RFC 5952: compress the longest run (first on ties) of two or more zero groups.
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (!sb.isEmpty() && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
    }

    /** The address as an unsigned integer. */
    public static BigInteger toBigInteger(InetAddress address) {
        return new BigInteger(1, address.getAddress());
    }

    /** The address of the given family whose unsigned value is {@code value}. */
    public static InetAddress fromBigInteger(IpFamily family, BigInteger value) {
        int len = family.bits() / 8;
        if (value.signum() < 0 || value.bitLength() > family.bits()) {
            throw new IllegalArgumentException("value out of range for " + family.key() + ": " + value);
        }
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[len];
        int copy = Math.min(raw.length, len);
        System.arraycopy(raw, raw.length - copy, bytes, len - copy, copy);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
