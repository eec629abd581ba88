package io.kovn.ovn.annotations;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * One network's entry in {@code k8s.ovn.org/pod-networks}.
 *
 * @param ipAddresses the pod's interface addresses with the node subnet's prefix length, one per family
 * @param macAddress the pod interface's MAC, lower case ({@code 0a:58:} + IPv4 bytes)
 * @param gatewayIps the default gateways (the node subnet's first addresses), one per family
 * @param routes extra routes, usually empty
 * @param role {@code primary} for the default network
 */
public record PodNetwork(
        List<IpPrefix> ipAddresses,
        String macAddress,
        List<InetAddress> gatewayIps,
        List<PodRoute> routes,
        String role) {
    /** The role of the cluster default network. */
    public static final String ROLE_PRIMARY = "primary";

    public PodNetwork {
        ipAddresses = List.copyOf(ipAddresses);
        gatewayIps = List.copyOf(gatewayIps);
        routes = List.copyOf(routes);
        Objects.requireNonNull(role, "role");
        if (ipAddresses.isEmpty()) {
            throw new IllegalArgumentException("no IP address");
        }
        if (!MacAddresses.isValid(macAddress)) {
            throw new IllegalArgumentException("not a lower-case MAC address: \"" + macAddress + "\"");
        }
    }

    /** A primary default-network entry without extra routes. */
    public static PodNetwork primary(List<IpPrefix> ipAddresses, String macAddress, List<InetAddress> gatewayIps) {
        return new PodNetwork(ipAddresses, macAddress, gatewayIps, List.of(), ROLE_PRIMARY);
    }

    /** The pod's addresses without prefix length. */
    public List<InetAddress> ips() {
        return ipAddresses.stream().map(IpPrefix::address).toList();
    }
}
