package io.kovn.controller.network;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a UserDefinedNetwork's {@code spec} (or a ClusterUserDefinedNetwork's {@code spec.network}) declares, read and
 * checked on its own: the checks the CRD's schema cannot express or that an older API server may not run. Checks
 * against the rest of the cluster are {@link NetworkPlan}'s. Pure.
 *
 * @param subnets one per family; Layer3 with each node's prefix length, Layer2 whole
 * @param joinSubnets the declared join subnets, or the reference's defaults
 */
public record NetworkSpec(
        Network.Topology topology,
        Network.Role role,
        List<ClusterNetwork> subnets,
        Optional<Integer> mtu,
        List<IpPrefix> joinSubnets) {
    /** The smallest MTU the reference accepts (IPv4's minimum datagram a host must take). */
    public static final int MIN_MTU = 576;

    public static final int MAX_MTU = 65536;

    public NetworkSpec {
        subnets = List.copyOf(subnets);
        joinSubnets = List.copyOf(joinSubnets);
    }

    /**
     * Reads the object holding {@code topology} and its {@code layer3}/{@code layer2} block.
     *
     * @throws InvalidNetworkException with reason {@code InvalidSpec} or {@code SecondaryNetworkUnsupported}
     */
    public static NetworkSpec parse(Object holder) {
        Map<?, ?> spec = map(holder, "spec");
        String topologyText = string(spec.get("topology"), "topology");
        Network.Topology topology = switch (topologyText) {
            case "Layer3" -> Network.Topology.LAYER3;
            case "Layer2" -> Network.Topology.LAYER2;
            default -> throw invalid("topology must be Layer3 or Layer2, not \"" + topologyText + "\"");
        };
        String blockName = topology == Network.Topology.LAYER3 ? "layer3" : "layer2";
        String other = topology == Network.Topology.LAYER3 ? "layer2" : "layer3";
        if (spec.get(other) != null) throw invalid(other + " is set but the topology is " + topologyText);
        Map<?, ?> block = map(spec.get(blockName), blockName);
        String roleText = string(block.get("role"), blockName + ".role");
        Network.Role role = switch (roleText) {
            case "Primary" -> Network.Role.PRIMARY;
            case "Secondary" ->
                throw new InvalidNetworkException(
                        "SecondaryNetworkUnsupported",
                        "role Secondary is not supported yet: kovn builds primary networks only");
            default -> throw invalid(blockName + ".role must be Primary or Secondary, not \"" + roleText + "\"");
        };
        List<ClusterNetwork> subnets = subnets(block.get("subnets"), blockName, topology);
        if (subnets.isEmpty()) {
            throw invalid(blockName + ".subnets: a primary " + topologyText + " network needs at least one subnet");
        }
        Optional<Integer> mtu = Optional.empty();
        if (block.get("mtu") != null) {
            int m = integer(block.get("mtu"), blockName + ".mtu");
            if (m < MIN_MTU || m > MAX_MTU)
                throw invalid(blockName + ".mtu " + m + " is outside " + MIN_MTU + ".." + MAX_MTU);
            mtu = Optional.of(m);
        }
        List<IpPrefix> join = block.get("joinSubnets") == null
                ? Network.DEFAULT_UDN_JOIN_SUBNETS
                : onePerFamily(
                        list(block.get("joinSubnets"), blockName + ".joinSubnets").stream()
                                .map(o -> cidr(o, blockName + ".joinSubnets"))
                                .toList(),
                        blockName + ".joinSubnets");
        return new NetworkSpec(topology, role, subnets, mtu, join);
    }

    private static List<ClusterNetwork> subnets(Object value, String block, Network.Topology topology) {
        if (value == null) return List.of();
        String where = block + ".subnets";
        List<ClusterNetwork> out = new ArrayList<>();
        for (Object item : list(value, where)) {
            IpPrefix cidr;
            int hostSubnet;
            if (topology == Network.Topology.LAYER3) {
                Map<?, ?> entry = map(item, where + "[]");
                cidr = cidr(entry.get("cidr"), where + "[].cidr");
                hostSubnet = entry.get("hostSubnet") == null
                        ? defaultHostSubnet(cidr)
                        : integer(entry.get("hostSubnet"), where + "[].hostSubnet");
                // a node subnet must be a part of the network, and leave room for more than one node
                if (hostSubnet <= cidr.length() || hostSubnet > cidr.family().bits() - 2) {
                    throw invalid(where + ": hostSubnet /" + hostSubnet + " does not fit " + cidr
                            + " (it must be longer than /" + cidr.length() + " and at most /"
                            + (cidr.family().bits() - 2) + ")");
                }
            } else {
                cidr = cidr(item, where + "[]");
                hostSubnet = cidr.length();
            }
            out.add(new ClusterNetwork(cidr, hostSubnet));
        }
        onePerFamily(out.stream().map(ClusterNetwork::cidr).toList(), where);
        return out;
    }

    /** The reference's default node subnet length: /24 for IPv4, /64 for IPv6 (never shorter than the CIDR allows). */
    static int defaultHostSubnet(IpPrefix cidr) {
        int preferred = cidr.family() == IpFamily.IPV4 ? 24 : 64;
        return Math.max(preferred, cidr.length() + 1);
    }

    private static List<IpPrefix> onePerFamily(List<IpPrefix> prefixes, String where) {
        for (IpFamily f : IpFamily.values()) {
            if (prefixes.stream().filter(p -> p.family() == f).count() > 1) {
                throw invalid(where + ": more than one " + f.key() + " subnet " + prefixes);
            }
        }
        return prefixes;
    }

    private static IpPrefix cidr(Object value, String where) {
        String text = string(value, where);
        IpPrefix p;
        try {
            p = IpPrefix.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid(where + ": \"" + text + "\" is not a CIDR");
        }
        if (!p.isNetwork())
            throw invalid(where + ": " + text + " has host bits set (the network is " + p.network() + ")");
        return p;
    }

    private static Map<?, ?> map(Object value, String where) {
        if (value instanceof Map<?, ?> m) return m;
        throw invalid(where + (value == null ? " is missing" : " must be an object"));
    }

    private static List<?> list(Object value, String where) {
        if (value instanceof List<?> l) return l;
        throw invalid(where + " must be a list");
    }

    private static String string(Object value, String where) {
        if (value instanceof String s) return s;
        throw invalid(where + (value == null ? " is missing" : " must be a string"));
    }

    private static int integer(Object value, String where) {
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) return n.intValue();
        throw invalid(where + " must be an integer");
    }

    private static InvalidNetworkException invalid(String message) {
        return new InvalidNetworkException(InvalidNetworkException.INVALID_SPEC, message);
    }
}
