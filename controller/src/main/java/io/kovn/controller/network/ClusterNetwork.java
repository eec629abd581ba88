package io.kovn.controller.network;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import java.math.BigInteger;

/**
 * A cluster network node subnets are cut from, e.g. {@code 10.244.0.0/16} with a {@code /24} per node.
 *
 * @param cidr the cluster network (host bits must be zero)
 * @param hostSubnetLength the prefix length of each node subnet
 */
public record ClusterNetwork(IpPrefix cidr, int hostSubnetLength) {
    /** The reference's default IPv4 cluster network: 10.244.0.0/16, a /24 per node. */
    public static final ClusterNetwork DEFAULT_V4 = parse("10.244.0.0/16/24");

    public ClusterNetwork {
        if (!cidr.isNetwork()) {
            throw new IllegalArgumentException("cluster network " + cidr + " has host bits set");
        }
        if (hostSubnetLength < cidr.length() || hostSubnetLength > cidr.family().bits() - 2) {
            throw new IllegalArgumentException("node subnet length /" + hostSubnetLength + " does not fit " + cidr);
        }
    }

    /** Parses {@code <cidr>/<hostSubnetLength>}, e.g. {@code 10.244.0.0/16/24} or {@code fd00:10:244::/48/64}. */
    public static ClusterNetwork parse(String text) {
        int slash = text.lastIndexOf('/');
        if (slash <= 0 || text.indexOf('/') == slash) {
            throw new IllegalArgumentException("expected <cidr>/<node prefix length>: " + text);
        }
        return new ClusterNetwork(
                IpPrefix.parse(text.substring(0, slash)), Integer.parseInt(text.substring(slash + 1)));
    }

    public IpFamily family() {
        return cidr.family();
    }

    /** Number of node subnets the network holds. */
    public BigInteger subnetCount() {
        return BigInteger.ONE.shiftLeft(hostSubnetLength - cidr.length());
    }

    /** The {@code index}-th node subnet. */
    public IpPrefix subnet(long index) {
        BigInteger step = BigInteger.ONE.shiftLeft(family().bits() - hostSubnetLength);
        return new IpPrefix(cidr.addressAt(step.multiply(BigInteger.valueOf(index))), hostSubnetLength);
    }

    /** The index of a node subnet, or -1 when it is not one of this network's node subnets. */
    public long indexOf(IpPrefix subnet) {
        if (subnet.length() != hostSubnetLength || !subnet.isNetwork() || !cidr.contains(subnet.address())) {
            return -1;
        }
        return cidr.indexOf(subnet.address())
                .shiftRight(family().bits() - hostSubnetLength)
                .longValueExact();
    }

    @Override
    public String toString() {
        return cidr + "/" + hostSubnetLength;
    }
}
