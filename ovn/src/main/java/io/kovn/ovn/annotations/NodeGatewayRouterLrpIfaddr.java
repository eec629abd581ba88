package io.kovn.ovn.annotations;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * {@code k8s.ovn.org/node-gateway-router-lrp-ifaddr}: the address of the node's gateway router {@code GR_<node>} on the
 * join switch (its port {@code rtoj-GR_<node>}), {@code {"ipv4":"100.64.0.2/16","ipv6":"fd98::2/64"}} (either key may
 * be absent, not both). In interconnect mode the cluster manager derives it from the node id, as for the transit
 * switch.
 *
 * @param ipv4 the IPv4 interface address, if the cluster has IPv4
 * @param ipv6 the IPv6 interface address, if the cluster has IPv6
 */
public record NodeGatewayRouterLrpIfaddr(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
    private static final String KEY = OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR;

    /** The reference's IPv4 join network (its first address is {@code ovn_cluster_router}'s). */
    public static final IpPrefix DEFAULT_V4_NETWORK = IpPrefix.parse("100.64.0.0/16");
    /** The reference's IPv6 join network. */
    public static final IpPrefix DEFAULT_V6_NETWORK = IpPrefix.parse("fd98::/64");

    public NodeGatewayRouterLrpIfaddr {
        IfaddrJson.validate(KEY, ipv4, ipv6);
    }

    /**
     * The addresses the reference derives from a node id: network address + id in each network
     * ({@code 100.64.0.<id>/16}, {@code fd98::<id>/64}); a network of {@code null} omits that family.
     */
    public static NodeGatewayRouterLrpIfaddr forNodeId(NodeId id, IpPrefix v4Network, IpPrefix v6Network) {
        IfaddrJson a = IfaddrJson.forNodeId(id, v4Network, v6Network);
        return new NodeGatewayRouterLrpIfaddr(a.ipv4(), a.ipv6());
    }

    /** The present addresses, IPv4 first. */
    public List<IpPrefix> all() {
        return IfaddrJson.all(ipv4, ipv6);
    }

    /** The present addresses without prefix length, IPv4 first. */
    public List<InetAddress> addresses() {
        return IfaddrJson.addresses(ipv4, ipv6);
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the offending key
     */
    public static NodeGatewayRouterLrpIfaddr parse(String value) {
        IfaddrJson a = IfaddrJson.parse(KEY, value);
        return new NodeGatewayRouterLrpIfaddr(a.ipv4(), a.ipv6());
    }

    /** The annotation value, e.g. {@code {"ipv4":"100.64.0.2/16","ipv6":"fd98::2/64"}}. */
    public String format() {
        return IfaddrJson.format(ipv4, ipv6);
    }
}
