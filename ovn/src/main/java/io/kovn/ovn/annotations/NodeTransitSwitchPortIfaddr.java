package io.kovn.ovn.annotations;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * {@code k8s.ovn.org/node-transit-switch-port-ifaddr}: the node's addresses on the transit switch,
 * {@code {"ipv4":"100.88.0.2/16","ipv6":"fd97::2/64"}} (either key may be absent, not both).
 *
 * @param ipv4 the IPv4 interface address, if the cluster has IPv4
 * @param ipv6 the IPv6 interface address, if the cluster has IPv6
 */
public record NodeTransitSwitchPortIfaddr(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
    private static final String KEY = OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR;

    /** The reference's IPv4 transit network. */
    public static final IpPrefix DEFAULT_V4_NETWORK = IpPrefix.parse("100.88.0.0/16");
    /** The reference's IPv6 transit network. */
    public static final IpPrefix DEFAULT_V6_NETWORK = IpPrefix.parse("fd97::/64");

    public NodeTransitSwitchPortIfaddr {
        IfaddrJson.validate(KEY, ipv4, ipv6);
    }

    /**
     * The addresses the reference derives from a node id: network address + id in each network
     * ({@code 100.88.0.<id>/16}, {@code fd97::<id>/64}); a network of {@code null} omits that family.
     */
    public static NodeTransitSwitchPortIfaddr forNodeId(NodeId id, IpPrefix v4Network, IpPrefix v6Network) {
        IfaddrJson a = IfaddrJson.forNodeId(id, v4Network, v6Network);
        return new NodeTransitSwitchPortIfaddr(a.ipv4(), a.ipv6());
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
    public static NodeTransitSwitchPortIfaddr parse(String value) {
        IfaddrJson a = IfaddrJson.parse(KEY, value);
        return new NodeTransitSwitchPortIfaddr(a.ipv4(), a.ipv6());
    }

    /** The annotation value, e.g. {@code {"ipv4":"100.88.0.2/16","ipv6":"fd97::2/64"}}. */
    public String format() {
        return IfaddrJson.format(ipv4, ipv6);
    }
}
