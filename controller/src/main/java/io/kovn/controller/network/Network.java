package io.kovn.controller.network;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A network kovn programs, as a value: the default network is network 0, a user-defined network (UDN or CUDN) has an id
 * 1..{@value #MAX_ID}. Every per-network controller takes one of these; nothing is special-cased by subclassing.
 *
 * @param name the reference's network name: {@code default}, {@code <namespace>_<name>} for a UserDefinedNetwork,
 *     {@code cluster_udn_<name>} for a ClusterUserDefinedNetwork
 * @param id 0 for the default network, else 1..{@value #MAX_ID}
 * @param subnets the network's CIDRs, at most one per family; for Layer3 each with the prefix length of a node's
 *     subnet, for Layer2 the whole CIDR ({@code hostSubnetLength == cidr.length()})
 * @param mtu the network's MTU, empty for the cluster's default
 * @param joinSubnets the subnets inside the network's OVN topology (cluster router to gateway routers)
 */
public record Network(
        String name,
        int id,
        Topology topology,
        Role role,
        List<ClusterNetwork> subnets,
        Optional<Integer> mtu,
        List<IpPrefix> joinSubnets) {
    /** The largest user-defined network id (the reference's). */
    public static final int MAX_ID = 4095;
    /** The reference's join subnets of a user-defined network (the default network's are 100.64.0.0/16, fd98::/64). */
    public static final List<IpPrefix> DEFAULT_UDN_JOIN_SUBNETS =
            List.of(IpPrefix.parse("100.65.0.0/16"), IpPrefix.parse("fd99::/64"));

    /** How the network is laid out in OVN. */
    public enum Topology {
        /** A switch per node with its own subnet, routed by the network's cluster router. */
        LAYER3("Layer3"),
        /** One switch spanning every node. */
        LAYER2("Layer2");

        private final String apiName;

        Topology(String apiName) {
            this.apiName = apiName;
        }

        /** As the API writes it. */
        public String apiName() {
            return apiName;
        }
    }

    /** What the network is to the pods that have it. */
    public enum Role {
        /** Every pod of the network's namespaces is attached; its default route. */
        PRIMARY("Primary"),
        /** Pods that ask for it get an extra interface. */
        SECONDARY("Secondary");

        private final String apiName;

        Role(String apiName) {
            this.apiName = apiName;
        }

        public String apiName() {
            return apiName;
        }
    }

    public Network {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(role, "role");
        subnets = List.copyOf(subnets);
        joinSubnets = List.copyOf(joinSubnets);
        Objects.requireNonNull(mtu, "mtu");
        if (id < 0 || id > MAX_ID) throw new IllegalArgumentException("network id " + id + " outside 0.." + MAX_ID);
        if ((id == 0) != name.equals(OvnAnnotations.DEFAULT_NETWORK)) {
            throw new IllegalArgumentException("network id 0 is the default network's alone: " + name + " has " + id);
        }
    }

    /** The default network: network 0, Layer3, primary, the cluster networks. */
    public static Network defaultNetwork(List<ClusterNetwork> clusterNetworks) {
        return new Network(
                OvnAnnotations.DEFAULT_NETWORK,
                0,
                Topology.LAYER3,
                Role.PRIMARY,
                clusterNetworks,
                Optional.empty(),
                List.of(IpPrefix.parse("100.64.0.0/16"), IpPrefix.parse("fd98::/64")));
    }

    public boolean isDefault() {
        return id == 0;
    }

    /**
     * The prefix of the network's OVN object names: empty for the default network, else the name with {@code -} and
     * {@code /} made {@code .}, then {@code _} (the reference's), so that {@code ns1_udn-a} names its objects
     * {@code ns1_udn.a_<object>}.
     */
    public String ovnPrefix() {
        return isDefault() ? "" : ovnPrefix(name);
    }

    /** {@link #ovnPrefix()} of a network name. */
    public static String ovnPrefix(String networkName) {
        return networkName.replace('-', '.').replace('/', '.') + "_";
    }

    /** The network's CIDR of a family, if it has one. */
    public Optional<ClusterNetwork> subnet(IpFamily family) {
        return subnets.stream().filter(s -> s.family() == family).findFirst();
    }

    /**
     * What the cluster manager gives each node of this network in {@code node-subnets}: a Layer3 network's node
     * subnets; for a Layer2 network, a range of its addresses that the node's pods take theirs from (the switch spans
     * every node: the range only keeps nodes from handing out one address twice). Layer2 ranges come from the network's
     * first 32,768 addresses (so an address's offset is a port tunnel key, {@link #layer2TunnelKey}), at most 64 of
     * them, of at most 512 addresses each (a /24 network: 16 ranges of 16).
     */
    public List<ClusterNetwork> nodeRanges() {
        if (topology == Topology.LAYER3) return subnets;
        return subnets.stream()
                .map(s -> {
                    int bits = s.family().bits();
                    int pool = Math.max(s.cidr().length(), bits - 15);
                    int range = Math.min(bits - 4, Math.max(s.cidr().length() + 6, bits - 9));
                    return new ClusterNetwork(new IpPrefix(s.cidr().address(), pool).network(), Math.max(range, pool));
                })
                .toList();
    }

    /**
     * The tunnel key of a Layer2 pod's port on the network's switch, the same in every zone: its first address's offset
     * in the network's CIDR (below 32,768 by {@link #nodeRanges}).
     *
     * @throws IllegalArgumentException for an address outside the network's first 32,768
     */
    public long tunnelKey(InetAddress address) {
        ClusterNetwork s = subnet(IpFamily.of(address))
                .orElseThrow(() -> new IllegalArgumentException(
                        "network " + name + " has no " + IpFamily.of(address).key() + " subnet"));
        if (!s.cidr().contains(address) || s.cidr().indexOf(address).bitLength() > 15) {
            throw new IllegalArgumentException(
                    address.getHostAddress() + " is outside the first 32,768 addresses of " + s.cidr());
        }
        return s.cidr().indexOf(address).longValueExact();
    }

    /** The network's CIDRs alone. */
    public List<IpPrefix> cidrs() {
        return subnets.stream().map(ClusterNetwork::cidr).toList();
    }
}
