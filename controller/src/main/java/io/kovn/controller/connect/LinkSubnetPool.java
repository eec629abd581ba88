package io.kovn.controller.connect;

import io.kovn.ovn.annotations.IpPrefix;
import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The free space of one connect subnet: blocks are taken whole, never overlapping. First fit from
 * the bottom ({@link #lowest}, Layer3 blocks) or from the top ({@link #highest}, Layer2 /31s), so the
 * two kinds meet only when the subnet is nearly full. Pure, mutable, one plan's life.
 */
final class LinkSubnetPool {
    private final IpPrefix cidr;
    /** Taken offsets in the subnet: start to end (exclusive); disjoint. */
    private final TreeMap<BigInteger, BigInteger> taken = new TreeMap<>();

    LinkSubnetPool(IpPrefix cidr) {
        this.cidr = cidr;
    }

    IpPrefix cidr() {
        return cidr;
    }

    /** Takes {@code block} if it is a network inside the subnet and free. */
    boolean take(IpPrefix block) {
        if (!block.isNetwork() || block.family() != cidr.family() || block.length() < cidr.length()
                || !cidr.contains(block.address())) {
            return false;
        }
        BigInteger start = cidr.indexOf(block.address());
        BigInteger end = start.add(block.size());
        if (overlapping(start, end) != null) return false;
        taken.put(start, end);
        return true;
    }

    /** Takes the lowest free block of this length. */
    Optional<IpPrefix> lowest(int length) {
        BigInteger size = size(length);
        BigInteger at = BigInteger.ZERO;
        while (at.add(size).compareTo(cidr.size()) <= 0) {
            Map.Entry<BigInteger, BigInteger> hit = overlapping(at, at.add(size));
            if (hit == null) return Optional.of(claim(at, size, length));
            at = ceil(hit.getValue(), size);
        }
        return Optional.empty();
    }

    /** Takes the highest free block of this length. */
    Optional<IpPrefix> highest(int length) {
        BigInteger size = size(length);
        BigInteger at = cidr.size().subtract(size);
        while (at.signum() >= 0) {
            Map.Entry<BigInteger, BigInteger> hit = overlapping(at, at.add(size));
            if (hit == null) return Optional.of(claim(at, size, length));
            at = floor(hit.getKey().subtract(size), size);
        }
        return Optional.empty();
    }

    private IpPrefix claim(BigInteger at, BigInteger size, int length) {
        taken.put(at, at.add(size));
        return new IpPrefix(cidr.addressAt(at), length);
    }

    /** A taken range that overlaps [start, end), or null: the one starting last below end (ranges are disjoint). */
    private Map.Entry<BigInteger, BigInteger> overlapping(BigInteger start, BigInteger end) {
        Map.Entry<BigInteger, BigInteger> e = taken.lowerEntry(end);
        return e != null && e.getValue().compareTo(start) > 0 ? e : null;
    }

    private BigInteger size(int length) {
        if (length < cidr.length() || length > cidr.family().bits()) {
            throw new IllegalArgumentException("/" + length + " does not fit " + cidr);
        }
        return BigInteger.ONE.shiftLeft(cidr.family().bits() - length);
    }

    private static BigInteger ceil(BigInteger value, BigInteger size) {
        BigInteger[] qr = value.divideAndRemainder(size);
        return (qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE)).multiply(size);
    }

    /** The largest multiple of size not above value (negative when value is). */
    private static BigInteger floor(BigInteger value, BigInteger size) {
        if (value.signum() < 0) return BigInteger.ONE.negate();
        return value.divide(size).multiply(size);
    }
}
