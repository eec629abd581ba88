package io.kovn.controller.connect;

import io.kovn.ovn.annotations.IpPrefix;
import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The link subnets of one connect subnet, as the reference lays them out: a Layer3 network takes a
 * {@code /networkPrefix} block, Layer2 networks take /31s (/127s) out of shared Layer2 blocks of that same size, a new
 * block when the others are full. Lowest free first everywhere, so link indexes stay small (zones derive port tunnel
 * keys from a link's block index, below 32,768). A Layer2 block exists while one of its links is taken. Pure, mutable,
 * one plan's life.
 */
final class LinkSubnetPool {
    private final IpPrefix cidr;
    private final int networkPrefix;
    private final Space blocks;
    /** The Layer2 blocks: their start offset in the cidr to the space of their links. */
    private final TreeMap<BigInteger, Space> layer2 = new TreeMap<>();

    LinkSubnetPool(IpPrefix cidr, int networkPrefix) {
        this.cidr = cidr;
        this.networkPrefix = networkPrefix;
        this.blocks = new Space(cidr);
    }

    IpPrefix cidr() {
        return cidr;
    }

    /** Takes a Layer3 network's block if it is a free {@code /networkPrefix} of the subnet. */
    boolean takeLayer3(IpPrefix block) {
        return block.length() == networkPrefix && blocks.take(block);
    }

    /** Takes a Layer2 network's link if it is a free /31 (/127) in a Layer2 block or a free block. */
    boolean takeLayer2(IpPrefix link) {
        if (link.length() != cidr.family().bits() - 1 || !link.isNetwork() || !cidr.contains(link.address()))
            return false;
        IpPrefix block = new IpPrefix(link.address(), networkPrefix).network();
        Space space = layer2.get(cidr.indexOf(block.address()));
        if (space == null) {
            if (!blocks.take(block)) return false;
            space = new Space(block);
            layer2.put(cidr.indexOf(block.address()), space);
        }
        return space.take(link);
    }

    /** Takes the lowest free Layer3 block. */
    Optional<IpPrefix> nextLayer3() {
        return blocks.lowest(networkPrefix);
    }

    /** Takes the lowest free link in the Layer2 blocks, opening the lowest free block when they are full. */
    Optional<IpPrefix> nextLayer2() {
        int length = cidr.family().bits() - 1;
        for (Space space : layer2.values()) {
            Optional<IpPrefix> link = space.lowest(length);
            if (link.isPresent()) return link;
        }
        Optional<IpPrefix> block = blocks.lowest(networkPrefix);
        if (block.isEmpty()) return Optional.empty();
        Space space = new Space(block.get());
        layer2.put(cidr.indexOf(block.get().address()), space);
        return space.lowest(length);
    }

    /** The free space of one prefix: blocks taken whole, never overlapping, first fit from the bottom. */
    private static final class Space {
        private final IpPrefix prefix;
        /** Taken offsets: start to end (exclusive); disjoint. */
        private final TreeMap<BigInteger, BigInteger> taken = new TreeMap<>();

        Space(IpPrefix prefix) {
            this.prefix = prefix;
        }

        boolean take(IpPrefix block) {
            if (!block.isNetwork()
                    || block.family() != prefix.family()
                    || block.length() < prefix.length()
                    || !prefix.contains(block.address())) {
                return false;
            }
            BigInteger start = prefix.indexOf(block.address());
            BigInteger end = start.add(block.size());
            if (overlapping(start, end) != null) return false;
            taken.put(start, end);
            return true;
        }

        Optional<IpPrefix> lowest(int length) {
            BigInteger size = BigInteger.ONE.shiftLeft(prefix.family().bits() - length);
            BigInteger at = BigInteger.ZERO;
            while (at.add(size).compareTo(prefix.size()) <= 0) {
                Map.Entry<BigInteger, BigInteger> hit = overlapping(at, at.add(size));
                if (hit == null) {
                    taken.put(at, at.add(size));
                    return Optional.of(new IpPrefix(prefix.addressAt(at), length));
                }
                at = ceil(hit.getValue(), size);
            }
            return Optional.empty();
        }

        /** A taken range that overlaps [start, end), or null: the one starting last below end (ranges are disjoint). */
        private Map.Entry<BigInteger, BigInteger> overlapping(BigInteger start, BigInteger end) {
            Map.Entry<BigInteger, BigInteger> e = taken.lowerEntry(end);
            return e != null && e.getValue().compareTo(start) > 0 ? e : null;
        }

        private static BigInteger ceil(BigInteger value, BigInteger size) {
            BigInteger[] qr = value.divideAndRemainder(size);
            return (qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE)).multiply(size);
        }
    }
}
