package io.kovn.ovn.annotations;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * {@code k8s.ovn.org/node-primary-ifaddr}: the addresses (with prefix length) of the node's primary interface, the one
 * holding the node IP, {@code {"ipv4":"172.18.0.2/16"}} (either key may be absent, not both). Written by the node
 * agent.
 *
 * @param ipv4 the IPv4 interface address, if the cluster has IPv4
 * @param ipv6 the IPv6 interface address, if the cluster has IPv6
 */
public record NodePrimaryIfaddr(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
    private static final String KEY = OvnAnnotations.NODE_PRIMARY_IFADDR;

    public NodePrimaryIfaddr {
        IfaddrJson.validate(KEY, ipv4, ipv6);
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
    public static NodePrimaryIfaddr parse(String value) {
        IfaddrJson a = IfaddrJson.parse(KEY, value);
        return new NodePrimaryIfaddr(a.ipv4(), a.ipv6());
    }

    /** The annotation value, e.g. {@code {"ipv4":"172.18.0.2/16"}}. */
    public String format() {
        return IfaddrJson.format(ipv4, ipv6);
    }
}
