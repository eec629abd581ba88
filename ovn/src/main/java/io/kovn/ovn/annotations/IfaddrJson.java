package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shape the reference gives every per-family interface address annotation ({@code node-transit-switch-port-ifaddr},
 * {@code node-gateway-router-lrp-ifaddr}, {@code node-primary-ifaddr}):
 * {@code {"ipv4":"100.88.0.2/16","ipv6":"fd97::2/64"}}, either key may be absent, not both. One codec for all of them,
 * each error naming its annotation. Pure.
 *
 * @param ipv4 the IPv4 interface address, if present
 * @param ipv6 the IPv6 interface address, if present
 */
record IfaddrJson(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
    /** Checks the pair for annotation {@code key}: at least one address, each of its own family. */
    static void validate(String key, Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
        if (ipv4.isEmpty() && ipv6.isEmpty()) {
            throw new AnnotationFormatException(key, "neither ipv4 nor ipv6 present");
        }
        ipv4.ifPresent(p -> requireFamily(key, p, IpFamily.IPV4));
        ipv6.ifPresent(p -> requireFamily(key, p, IpFamily.IPV6));
    }

    /**
     * The reference's derivation from a node id: network address + id in each network; a null network omits that
     * family.
     */
    static IfaddrJson forNodeId(NodeId id, IpPrefix v4Network, IpPrefix v6Network) {
        return new IfaddrJson(
                Optional.ofNullable(v4Network).map(n -> new IpPrefix(n.addressAt(id.value()), n.length())),
                Optional.ofNullable(v6Network).map(n -> new IpPrefix(n.addressAt(id.value()), n.length())));
    }

    /** The present addresses, IPv4 first. */
    static List<IpPrefix> all(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
        List<IpPrefix> out = new ArrayList<>(2);
        ipv4.ifPresent(out::add);
        ipv6.ifPresent(out::add);
        return List.copyOf(out);
    }

    /** The present addresses without prefix length, IPv4 first. */
    static List<InetAddress> addresses(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
        return all(ipv4, ipv6).stream().map(IpPrefix::address).toList();
    }

    /**
     * Parses the value of annotation {@code key}.
     *
     * @throws AnnotationFormatException naming the annotation and the offending key
     */
    static IfaddrJson parse(String key, String value) {
        JsonNode root = AnnotationJson.read(key, value);
        if (!root.isObject()) {
            throw new AnnotationFormatException(
                    key, "must be a JSON object with ipv4/ipv6, got " + AnnotationJson.describe(root));
        }
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            if (!e.getKey().equals("ipv4") && !e.getKey().equals("ipv6")) {
                throw new AnnotationFormatException(key, "unknown key \"" + e.getKey() + "\" (expected ipv4, ipv6)");
            }
        }
        return new IfaddrJson(field(key, root, IpFamily.IPV4), field(key, root, IpFamily.IPV6));
    }

    /** The annotation value. */
    static String format(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
        ObjectNode root = AnnotationJson.MAPPER.createObjectNode();
        ipv4.ifPresent(p -> root.put("ipv4", p.toString()));
        ipv6.ifPresent(p -> root.put("ipv6", p.toString()));
        return AnnotationJson.write(root);
    }

    private static Optional<IpPrefix> field(String key, JsonNode root, IpFamily family) {
        JsonNode node = root.get(family.key());
        if (node == null) {
            return Optional.empty();
        }
        IpPrefix p = AnnotationJson.cidr(key, AnnotationJson.text(key, node, family.key()), family.key());
        requireFamily(key, p, family);
        return Optional.of(p);
    }

    private static void requireFamily(String key, IpPrefix p, IpFamily family) {
        if (p.family() != family) {
            throw new AnnotationFormatException(
                    key, family.key() + ": " + p + " is not an " + family.key() + " address");
        }
    }
}
