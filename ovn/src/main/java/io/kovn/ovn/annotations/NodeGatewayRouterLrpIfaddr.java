package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code k8s.ovn.org/node-gateway-router-lrp-ifaddr}: the address of the node's gateway router
 * {@code GR_<node>} on the join switch (its port {@code rtoj-GR_<node>}),
 * {@code {"ipv4":"100.64.0.2/16","ipv6":"fd98::2/64"}} (either key may be absent, not both). In
 * interconnect mode the cluster manager derives it from the node id, as for the transit switch.
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
        if (ipv4.isEmpty() && ipv6.isEmpty()) {
            throw new AnnotationFormatException(KEY, "neither ipv4 nor ipv6 present");
        }
        ipv4.ifPresent(p -> requireFamily(p, IpFamily.IPV4));
        ipv6.ifPresent(p -> requireFamily(p, IpFamily.IPV6));
    }

    /**
     * The addresses the reference derives from a node id: network address + id in each network
     * ({@code 100.64.0.<id>/16}, {@code fd98::<id>/64}); a network of {@code null} omits that family.
     */
    public static NodeGatewayRouterLrpIfaddr forNodeId(NodeId id, IpPrefix v4Network, IpPrefix v6Network) {
        return new NodeGatewayRouterLrpIfaddr(
                Optional.ofNullable(v4Network).map(n -> new IpPrefix(n.addressAt(id.value()), n.length())),
                Optional.ofNullable(v6Network).map(n -> new IpPrefix(n.addressAt(id.value()), n.length())));
    }

    /** The present addresses, IPv4 first. */
    public List<IpPrefix> all() {
        List<IpPrefix> out = new ArrayList<>(2);
        ipv4.ifPresent(out::add);
        ipv6.ifPresent(out::add);
        return List.copyOf(out);
    }

    /** The present addresses without prefix length, IPv4 first. */
    public List<InetAddress> addresses() {
        return all().stream().map(IpPrefix::address).toList();
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the offending key
     */
    public static NodeGatewayRouterLrpIfaddr parse(String value) {
        JsonNode root = AnnotationJson.read(KEY, value);
        if (!root.isObject()) {
            throw new AnnotationFormatException(KEY, "must be a JSON object with ipv4/ipv6, got "
                    + AnnotationJson.describe(root));
        }
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            if (!e.getKey().equals("ipv4") && !e.getKey().equals("ipv6")) {
                throw new AnnotationFormatException(KEY, "unknown key \"" + e.getKey() + "\" (expected ipv4, ipv6)");
            }
        }
        Optional<IpPrefix> v4 = field(root, IpFamily.IPV4);
        Optional<IpPrefix> v6 = field(root, IpFamily.IPV6);
        return new NodeGatewayRouterLrpIfaddr(v4, v6);
    }

    /** The annotation value, e.g. {@code {"ipv4":"100.64.0.2/16","ipv6":"fd98::2/64"}}. */
    public String format() {
        ObjectNode root = AnnotationJson.MAPPER.createObjectNode();
        ipv4.ifPresent(p -> root.put("ipv4", p.toString()));
        ipv6.ifPresent(p -> root.put("ipv6", p.toString()));
        return AnnotationJson.write(root);
    }

    private static Optional<IpPrefix> field(JsonNode root, IpFamily family) {
        JsonNode node = root.get(family.key());
        if (node == null) {
            return Optional.empty();
        }
        IpPrefix p = AnnotationJson.cidr(KEY, AnnotationJson.text(KEY, node, family.key()), family.key());
        requireFamily(p, family);
        return Optional.of(p);
    }

    private static void requireFamily(IpPrefix p, IpFamily family) {
        if (p.family() != family) {
            throw new AnnotationFormatException(KEY, family.key() + ": " + p + " is not an " + family.key() + " address");
        }
    }
}
