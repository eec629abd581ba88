package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code k8s.ovn.org/node-primary-ifaddr}: the addresses (with prefix length) of the node's primary
 * interface, the one holding the node IP, {@code {"ipv4":"172.18.0.2/16"}} (either key may be absent,
 * not both). Written by the node agent.
 *
 * @param ipv4 the IPv4 interface address, if the cluster has IPv4
 * @param ipv6 the IPv6 interface address, if the cluster has IPv6
 */
public record NodePrimaryIfaddr(Optional<IpPrefix> ipv4, Optional<IpPrefix> ipv6) {
    private static final String KEY = OvnAnnotations.NODE_PRIMARY_IFADDR;

    public NodePrimaryIfaddr {
        if (ipv4.isEmpty() && ipv6.isEmpty()) {
            throw new AnnotationFormatException(KEY, "neither ipv4 nor ipv6 present");
        }
        ipv4.ifPresent(p -> requireFamily(p, IpFamily.IPV4));
        ipv6.ifPresent(p -> requireFamily(p, IpFamily.IPV6));
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
    public static NodePrimaryIfaddr parse(String value) {
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
        return new NodePrimaryIfaddr(v4, v6);
    }

    /** The annotation value, e.g. {@code {"ipv4":"172.18.0.2/16"}}. */
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
