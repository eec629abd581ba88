package io.kovn.ovn.annotations;

import java.math.BigInteger;
import java.net.InetAddress;
import java.util.Objects;

/**
 * An address with a prefix length, as annotations write it: a network ({@code 10.244.1.0/24}) or an interface address
 * inside one ({@code 10.244.1.3/24}).
 *
 * @param address the address as written (not necessarily the network address)
 * @param length prefix length, 0..32 for IPv4 and 0..128 for IPv6
 */
public record IpPrefix(InetAddress address, int length) implements Comparable<IpPrefix> {
    public IpPrefix {
        Objects.requireNonNull(address, "address");
        int bits = IpFamily.of(address).bits();
        if (length < 0 || length > bits) {
            throw new IllegalArgumentException("prefix length " + length + " out of range 0.." + bits);
        }
    }

    /**
     * Parses {@code <address>/<length>}.
     *
     * @throws IllegalArgumentException with the reason, naming the input
     */
    public static IpPrefix parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing CIDR");
        }
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not a CIDR (no '/<length>'): \"" + text + "\"");
        }
        InetAddress address;
        try {
            address = IpLiterals.parse(text.substring(0, slash));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a CIDR: \"" + text + "\": " + e.getMessage());
        }
        String len = text.substring(slash + 1);
        if (!len.matches("[0-9]{1,3}")) {
            throw new IllegalArgumentException("not a CIDR (bad prefix length): \"" + text + "\"");
        }
        try {
            return new IpPrefix(address, Integer.parseInt(len));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a CIDR: \"" + text + "\": " + e.getMessage());
        }
    }

    /** Whether {@link #parse} accepts {@code text}: an IPv4 or IPv6 CIDR, by its text only. */
    public static boolean isCidr(String text) {
        try {
            parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The network with this prefix length that contains {@code address}. */
    public static IpPrefix of(InetAddress address, int length) {
        return new IpPrefix(address, length);
    }

    public IpFamily family() {
        return IpFamily.of(address);
    }

    /** This prefix with the host bits cleared. */
    public IpPrefix network() {
        return new IpPrefix(IpLiterals.fromBigInteger(family(), first()), length);
    }

    /** Whether the address is the network address (host bits all zero). */
    public boolean isNetwork() {
        return IpLiterals.toBigInteger(address).equals(first());
    }

    /** Number of addresses in the network. */
    public BigInteger size() {
        return BigInteger.ONE.shiftLeft(family().bits() - length);
    }

    /** The {@code index}-th address of the network (0 = network address). */
    public InetAddress addressAt(BigInteger index) {
        if (index.signum() < 0 || index.compareTo(size()) >= 0) {
            throw new IllegalArgumentException("index " + index + " outside " + network());
        }
        return IpLiterals.fromBigInteger(family(), first().add(index));
    }

    /** Convenience for {@link #addressAt(BigInteger)}. */
    public InetAddress addressAt(long index) {
        return addressAt(BigInteger.valueOf(index));
    }

    /** The offset of {@code other} inside this network. */
    public BigInteger indexOf(InetAddress other) {
        if (!contains(other)) {
            throw new IllegalArgumentException(IpLiterals.format(other) + " is not inside " + network());
        }
        return IpLiterals.toBigInteger(other).subtract(first());
    }

    /** Whether {@code other} lies inside this network. */
    public boolean contains(InetAddress other) {
        if (IpFamily.of(other) != family()) {
            return false;
        }
        return IpLiterals.toBigInteger(other).subtract(first()).signum() >= 0
                && IpLiterals.toBigInteger(other).compareTo(first().add(size())) < 0;
    }

    /** Whether the two networks share any address. */
    public boolean overlaps(IpPrefix other) {
        if (other.family() != family()) {
            return false;
        }
        return contains(other.network().address) || other.contains(network().address);
    }

    /** The same address with another prefix length (e.g. a pod address in its node subnet). */
    public IpPrefix withLength(int newLength) {
        return new IpPrefix(address, newLength);
    }

    private BigInteger first() {
        BigInteger value = IpLiterals.toBigInteger(address);
        int hostBits = family().bits() - length;
        return value.shiftRight(hostBits).shiftLeft(hostBits);
    }

    @Override
    public int compareTo(IpPrefix o) {
        int c = family().compareTo(o.family());
        if (c != 0) {
            return c;
        }
        c = IpLiterals.toBigInteger(address).compareTo(IpLiterals.toBigInteger(o.address));
        return c != 0 ? c : Integer.compare(length, o.length);
    }

    /** {@code <canonical address>/<length>}. */
    @Override
    public String toString() {
        return IpLiterals.format(address) + "/" + length;
    }
}
