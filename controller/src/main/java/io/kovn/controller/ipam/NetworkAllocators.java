package io.kovn.controller.ipam;

import io.kovn.ovn.annotations.IpPrefix;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pod address allocators of one node, one per network it has subnets of (its {@code node-subnets}: the default
 * network's and each Layer3 user-defined network's). A pod holds addresses in at most two: the default network and its
 * primary network. Thread-safe as its allocators are; the set of networks is fixed (a change of the node's subnets
 * makes a new one).
 */
public final class NetworkAllocators {
    private final Map<String, List<IpPrefix>> subnets;
    private final Map<String, PodIpAllocator> byNetwork = new LinkedHashMap<>();

    /** @param subnets each network's node subnets by network name (networks without any are left out) */
    public NetworkAllocators(Map<String, List<IpPrefix>> subnets) {
        Map<String, List<IpPrefix>> copy = new LinkedHashMap<>();
        subnets.forEach((network, s) -> {
            if (!s.isEmpty()) {
                copy.put(network, List.copyOf(s));
                byNetwork.put(network, new PodIpAllocator(s));
            }
        });
        this.subnets = Map.copyOf(copy);
    }

    /** The subnets these allocators were made for. */
    public Map<String, List<IpPrefix>> subnets() {
        return subnets;
    }

    /** A network's allocator, if the node has subnets of it. */
    public Optional<PodIpAllocator> of(String network) {
        return Optional.ofNullable(byNetwork.get(network));
    }

    /** Whether the pod holds addresses in any network. */
    public boolean holds(String pod) {
        return byNetwork.values().stream().anyMatch(a -> !a.addressesOf(pod).isEmpty());
    }

    /** Frees the pod's addresses in every network but {@code keep}; whether any were freed. */
    public boolean releaseExcept(String pod, Set<String> keep) {
        boolean freed = false;
        for (Map.Entry<String, PodIpAllocator> e : byNetwork.entrySet()) {
            if (!keep.contains(e.getKey()) && !e.getValue().addressesOf(pod).isEmpty()) {
                e.getValue().release(pod);
                freed = true;
            }
        }
        return freed;
    }
}
