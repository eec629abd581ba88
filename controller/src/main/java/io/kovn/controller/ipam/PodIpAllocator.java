package io.kovn.controller.ipam;

import io.kovn.ovn.annotations.IpPrefix;
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Pod addresses of one node: one per node subnet (one subnet per IP family), never the network address, the gateway
 * (the subnet's first address), the management port (the second: the node's {@code ovn-k8s-mp0}) or the last address
 * (IPv4 broadcast; skipped in IPv6 too). Keys are pod keys ({@code <namespace>/<name>}); allocation is idempotent per
 * key. Thread-safe.
 */
public final class PodIpAllocator {
    /** Offsets beyond this are never handed out, so huge IPv6 subnets stay within {@code long}. */
    private static final long MAX_OFFSET = Long.MAX_VALUE - 1;

    /** Offset 1 is the gateway, 2 the management port: pods start at 3. */
    private static final long FIRST_POD_OFFSET = 3;

    private final List<IpPrefix> subnets;
    private final List<IndexAllocator> pools = new ArrayList<>();
    private final Map<String, List<IpPrefix>> byPod = new HashMap<>();

    /** The outcome of {@link #allocate}. */
    public sealed interface Allocation {
        /** @param addresses one per subnet, each with the subnet's prefix length */
        record Allocated(List<IpPrefix> addresses) implements Allocation {}

        /** @param subnet the subnet without a free address */
        record Exhausted(IpPrefix subnet) implements Allocation {}
    }

    /** The outcome of {@link #reserve}. */
    public sealed interface Reservation {
        record Reserved(List<IpPrefix> addresses) implements Reservation {}

        /** @param address already held by {@code owner} */
        record Conflict(IpPrefix address, String owner) implements Reservation {}

        /** @param address outside every subnet, or one of the reserved addresses, or a second one of a family */
        record Invalid(IpPrefix address, String reason) implements Reservation {}
    }

    /** @param subnets the node subnets, at most one per family */
    public PodIpAllocator(List<IpPrefix> subnets) {
        this.subnets = List.copyOf(subnets);
        for (IpPrefix s : this.subnets) {
            if (!s.isNetwork()) {
                throw new IllegalArgumentException("not a network: " + s);
            }
            BigInteger lastOffset = s.size().subtract(BigInteger.TWO);
            long last = lastOffset.min(BigInteger.valueOf(MAX_OFFSET)).longValueExact();
            pools.add(new IndexAllocator(FIRST_POD_OFFSET, last));
        }
        if (this.subnets.stream().map(IpPrefix::family).distinct().count() != this.subnets.size()) {
            throw new IllegalArgumentException("more than one subnet per family: " + subnets);
        }
    }

    /** The subnets addresses come from. */
    public List<IpPrefix> subnets() {
        return subnets;
    }

    /** The gateway of each subnet: its first address. */
    public List<InetAddress> gateways() {
        return subnets.stream().map(s -> s.addressAt(1)).toList();
    }

    /** Gives the pod one address per subnet, or returns the addresses it already holds. */
    public synchronized Allocation allocate(String pod) {
        List<IpPrefix> held = byPod.get(pod);
        if (held != null) {
            return new Allocation.Allocated(held);
        }
        List<IpPrefix> out = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < subnets.size(); i++) {
            OptionalLong offset = pools.get(i).allocate();
            if (offset.isEmpty()) {
                for (int j = 0; j < offsets.size(); j++) {
                    pools.get(j).release(offsets.get(j));
                }
                return new Allocation.Exhausted(subnets.get(i));
            }
            offsets.add(offset.getAsLong());
            IpPrefix s = subnets.get(i);
            out.add(new IpPrefix(s.addressAt(offset.getAsLong()), s.length()));
        }
        byPod.put(pod, List.copyOf(out));
        return new Allocation.Allocated(List.copyOf(out));
    }

    /**
     * Records addresses a pod already holds (read back from its annotation after a restart). All or nothing: on a
     * conflict nothing is taken. Re-reserving the pod's own addresses succeeds.
     */
    public synchronized Reservation reserve(String pod, List<IpPrefix> addresses) {
        List<IpPrefix> held = byPod.get(pod);
        if (held != null) {
            return held.equals(normalize(addresses))
                    ? new Reservation.Reserved(held)
                    : new Reservation.Invalid(
                            addresses.isEmpty() ? null : addresses.getFirst(), "pod already holds " + held);
        }
        Map<Integer, Long> wanted = new LinkedHashMap<>();
        for (IpPrefix a : addresses) {
            int i = subnetIndex(a.address());
            if (i < 0) {
                return new Reservation.Invalid(a, "outside the node subnets " + subnets);
            }
            long offset = subnets.get(i).indexOf(a.address()).longValue();
            if (!pools.get(i).inRange(offset)) {
                return new Reservation.Invalid(a, "network, gateway, management port or broadcast address");
            }
            if (wanted.put(i, offset) != null) {
                return new Reservation.Invalid(a, "second " + a.family().key() + " address");
            }
            if (pools.get(i).isTaken(offset)) {
                return new Reservation.Conflict(a, ownerOf(a.address()));
            }
        }
        wanted.forEach((i, offset) -> pools.get(i).reserve(offset));
        List<IpPrefix> normalized = normalize(addresses);
        byPod.put(pod, normalized);
        return new Reservation.Reserved(normalized);
    }

    /** Frees the pod's addresses (no-op for an unknown pod). */
    public synchronized void release(String pod) {
        List<IpPrefix> held = byPod.remove(pod);
        if (held == null) {
            return;
        }
        for (IpPrefix a : held) {
            int i = subnetIndex(a.address());
            pools.get(i).release(subnets.get(i).indexOf(a.address()).longValue());
        }
    }

    /** The addresses the pod holds, empty when none. */
    public synchronized List<IpPrefix> addressesOf(String pod) {
        return byPod.getOrDefault(pod, List.of());
    }

    /** The pod holding an address, or {@code null}. */
    public synchronized String ownerOf(InetAddress address) {
        for (Map.Entry<String, List<IpPrefix>> e : byPod.entrySet()) {
            for (IpPrefix a : e.getValue()) {
                if (a.address().equals(address)) {
                    return e.getKey();
                }
            }
        }
        return null;
    }

    /** The number of pods holding addresses. */
    public synchronized int pods() {
        return byPod.size();
    }

    /** A snapshot: pod key to its addresses. */
    public synchronized Map<String, List<IpPrefix>> snapshot() {
        return Map.copyOf(byPod);
    }

    private List<IpPrefix> normalize(List<IpPrefix> addresses) {
        // Same order as the subnets, each with its subnet's prefix length.
        List<IpPrefix> out = new ArrayList<>();
        for (IpPrefix s : subnets) {
            for (IpPrefix a : addresses) {
                if (s.contains(a.address())) {
                    out.add(new IpPrefix(a.address(), s.length()));
                }
            }
        }
        return List.copyOf(out);
    }

    private int subnetIndex(InetAddress address) {
        for (int i = 0; i < subnets.size(); i++) {
            if (subnets.get(i).contains(address)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return "PodIpAllocator" + subnets + " pods=" + pods();
    }
}
