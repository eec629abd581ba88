package io.kovn.controller.clustermanager;

import io.kovn.controller.network.ClusterNetwork;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The cluster manager's allocation state: node subnets and node ids of every node, no I/O.
 *
 * <p>Restart safety: {@link #restore} adopts what existing annotations say before any new allocation is made, so a
 * node's allocation never moves; {@link #ensure} adopts too, then fills what is missing. A value held by another node
 * is never adopted twice (the later node gets a new one). All methods are synchronized: reconciles of different nodes
 * may run concurrently.
 */
public final class NodeAllocator {
    private final ClusterManagerConfig config;
    private final SubnetAllocator subnets;
    private final NodeIdAllocator ids;
    private final Map<String, Held> nodes = new HashMap<>();
    /** The user-defined Layer3 networks' node subnets, by network name. */
    private final Map<String, SubnetAllocator> networks = new TreeMap<>();

    private final Map<String, List<ClusterNetwork>> networkCidrs = new HashMap<>();
    /** Whether {@link #networks} was called: before, nodes' entries of other networks are left as they are. */
    private boolean networksKnown;

    /** What a node holds so far (possibly partial after exhaustion). */
    private static final class Held {
        final Map<IpFamily, IpPrefix> subnets = new EnumMap<>(IpFamily.class);
        final Map<String, Map<IpFamily, IpPrefix>> networkSubnets = new HashMap<>();
        NodeId id;
    }

    /** The outcome of {@link #ensure}. */
    public sealed interface Decision {
        /** The node's annotations already state its allocation. */
        record UpToDate(NodeAllocation allocation) implements Decision {}

        /** The node's annotations must be set to {@code allocation.annotations()}. */
        record Patch(NodeAllocation allocation) implements Decision {}

        /** A range is full; the node keeps what it has and is retried later. */
        record Exhausted(String message) implements Decision {}
    }

    public NodeAllocator(ClusterManagerConfig config) {
        this.config = config;
        this.subnets = new SubnetAllocator(config.clusterNetworks());
        this.ids = new NodeIdAllocator(config.maxNodeId());
    }

    /**
     * Adopts the allocation a node's annotations state, as far as it is valid and free; allocates nothing new. Call for
     * every existing node before the first {@link #ensure}.
     */
    public synchronized void restore(String node, Map<String, String> annotations) {
        adopt(node, annotations);
    }

    /**
     * Sets the user-defined Layer3 networks nodes get subnets of. A network that is new adopts what every node's
     * annotation already states for it (restart safety) before any node is given a new subnet of it; a network that is
     * gone frees its subnets, and nodes' annotations lose it at their next {@link #ensure}.
     *
     * @param layer3 each network's CIDRs by network name
     * @param annotations every node's annotations, oldest node first
     * @return whether the set of networks changed (then every node must be ensured again)
     */
    public synchronized boolean networks(
            Map<String, List<ClusterNetwork>> layer3, Map<String, Map<String, String>> annotations) {
        boolean changed = !networksKnown;
        networksKnown = true;
        for (String name : List.copyOf(networks.keySet())) {
            if (!networkCidrs.get(name).equals(layer3.get(name))) { // gone, or (never: specs are immutable) changed
                networks.remove(name);
                networkCidrs.remove(name);
                nodes.values().forEach(h -> h.networkSubnets.remove(name));
                changed = true;
            }
        }
        for (Map.Entry<String, List<ClusterNetwork>> e : layer3.entrySet()) {
            if (networks.containsKey(e.getKey())) continue;
            networks.put(e.getKey(), new SubnetAllocator(e.getValue()));
            networkCidrs.put(e.getKey(), List.copyOf(e.getValue()));
            annotations.forEach(this::adopt);
            changed = true;
        }
        return changed;
    }

    /** Adopts, then allocates what the node lacks, and says whether its annotations must change. */
    public synchronized Decision ensure(String node, Map<String, String> annotations) {
        Held held = adopt(node, annotations);
        for (Map.Entry<String, SubnetAllocator> n : networks.entrySet()) {
            Optional<String> full = fill(
                    held.networkSubnets.computeIfAbsent(n.getKey(), k -> new EnumMap<>(IpFamily.class)),
                    n.getValue(),
                    "network " + n.getKey() + "'s ",
                    node);
            if (full.isPresent()) return new Decision.Exhausted(full.get());
        }
        Optional<String> full = fill(held.subnets, subnets, "cluster networks ", node);
        if (full.isPresent()) return new Decision.Exhausted(full.get());
        if (held.id == null) {
            Optional<NodeId> id = ids.allocate();
            if (id.isEmpty()) {
                return new Decision.Exhausted(
                        "no free node id in " + NodeId.MIN + ".." + config.maxNodeId() + " for node " + node);
            }
            held.id = id.get();
        }
        NodeAllocation allocation = toAllocation(held);
        if (!networksKnown) {
            // Until the user-defined networks are known, a node keeps what it states of them: a
            // restarted cluster manager must not strip them and make every zone tear them down.
            Map<String, List<IpPrefix>> kept =
                    new HashMap<>(parsedNetworks(annotations.get(OvnAnnotations.NODE_SUBNETS)));
            kept.remove(OvnAnnotations.DEFAULT_NETWORK);
            allocation = new NodeAllocation(
                    allocation.subnets(), allocation.id(), allocation.transit(), allocation.gatewayRouterLrp(), kept);
        }
        Map<String, String> want = allocation.annotations();
        boolean same = want.entrySet().stream().allMatch(e -> e.getValue().equals(annotations.get(e.getKey())));
        return same ? new Decision.UpToDate(allocation) : new Decision.Patch(allocation);
    }

    /** Frees everything a deleted node held. */
    public synchronized void release(String node) {
        Held held = nodes.remove(node);
        if (held == null) {
            return;
        }
        held.subnets.values().forEach(subnets::release);
        held.networkSubnets.forEach((network, mine) -> {
            SubnetAllocator a = networks.get(network);
            if (a != null) mine.values().forEach(a::release);
        });
        if (held.id != null) {
            ids.release(held.id);
        }
    }

    /** The node's complete allocation, if it has one. */
    public synchronized Optional<NodeAllocation> allocationOf(String node) {
        Held held = nodes.get(node);
        if (held == null
                || held.id == null
                || held.subnets.size() != subnets.families().size()) {
            return Optional.empty();
        }
        return Optional.of(toAllocation(held));
    }

    /** The nodes holding anything. */
    public synchronized List<String> nodes() {
        return List.copyOf(nodes.keySet());
    }

    private Held adopt(String node, Map<String, String> annotations) {
        Held held = nodes.computeIfAbsent(node, n -> new Held());
        if (held.subnets.size() < subnets.families().size() || !networks.isEmpty()) {
            Map<String, List<IpPrefix>> stated = parsedNetworks(annotations.get(OvnAnnotations.NODE_SUBNETS));
            reserve(held.subnets, stated.getOrDefault(OvnAnnotations.DEFAULT_NETWORK, List.of()), subnets);
            for (Map.Entry<String, SubnetAllocator> n : networks.entrySet()) {
                reserve(
                        held.networkSubnets.computeIfAbsent(n.getKey(), k -> new EnumMap<>(IpFamily.class)),
                        stated.getOrDefault(n.getKey(), List.of()),
                        n.getValue());
            }
        }
        if (held.id == null) {
            parsedId(annotations.get(OvnAnnotations.NODE_ID))
                    .filter(id -> id.value() <= config.maxNodeId())
                    .filter(ids::reserve)
                    .ifPresent(id -> held.id = id);
        }
        return held;
    }

    private NodeAllocation toAllocation(Held held) {
        List<IpPrefix> list = new ArrayList<>(held.subnets.values());
        NodeTransitSwitchPortIfaddr transit = NodeTransitSwitchPortIfaddr.forNodeId(
                held.id,
                config.has(IpFamily.IPV4) ? config.transitV4() : null,
                config.has(IpFamily.IPV6) ? config.transitV6() : null);
        // The join network is the reference's fixed 100.64.0.0/16 (fd98::/64): 100.64.0.1 is
        // ovn_cluster_router's, node ids start at 2, so they never collide.
        NodeGatewayRouterLrpIfaddr join = NodeGatewayRouterLrpIfaddr.forNodeId(
                held.id,
                config.has(IpFamily.IPV4) ? NodeGatewayRouterLrpIfaddr.DEFAULT_V4_NETWORK : null,
                config.has(IpFamily.IPV6) ? NodeGatewayRouterLrpIfaddr.DEFAULT_V6_NETWORK : null);
        Map<String, List<IpPrefix>> others = new TreeMap<>();
        held.networkSubnets.forEach((network, mine) -> {
            if (networks.containsKey(network) && !mine.isEmpty()) others.put(network, new ArrayList<>(mine.values()));
        });
        return new NodeAllocation(list, held.id, transit, join, others);
    }

    /** Takes the subnets a node states of one network into what it holds, as far as they are the network's and free. */
    private static void reserve(Map<IpFamily, IpPrefix> held, List<IpPrefix> stated, SubnetAllocator pool) {
        for (IpPrefix s : stated) {
            if (!held.containsKey(s.family()) && pool.families().contains(s.family()) && pool.reserve(s)) {
                held.put(s.family(), s);
            }
        }
    }

    /**
     * Allocates what a node lacks of one network, a subnet per family of its pool; the exhaustion message if a family
     * is full.
     *
     * @param where how the message names the pool ({@code "cluster networks "}, {@code "network N's "})
     */
    private static Optional<String> fill(
            Map<IpFamily, IpPrefix> held, SubnetAllocator pool, String where, String node) {
        for (IpFamily family : pool.families()) {
            if (held.containsKey(family)) continue;
            Optional<IpPrefix> s = pool.allocate(family);
            if (s.isEmpty()) {
                return Optional.of("no free " + family.key() + " node subnet in " + where + pool.describe(family)
                        + " for node " + node);
            }
            held.put(family, s.get());
        }
        return Optional.empty();
    }

    /**
     * Every network's subnets a node states; none when the annotation is missing or unreadable (it is written anew).
     */
    private static Map<String, List<IpPrefix>> parsedNetworks(String value) {
        if (value == null) return Map.of();
        try {
            return NodeSubnets.parse(value).byNetwork();
        } catch (AnnotationFormatException e) {
            return Map.of();
        }
    }

    private static Optional<NodeId> parsedId(String value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(NodeId.parse(value));
        } catch (AnnotationFormatException e) {
            return Optional.empty();
        }
    }
}
