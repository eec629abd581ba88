package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * {@code k8s.ovn.org/network-connect-subnet} on a ClusterNetworkConnect: the link subnets the cluster manager gave each
 * connected network out of the CNC's {@code connectSubnets}, keyed {@code layer3_<network id>} (a
 * {@code /networkPrefix} block, a /31 or /127 per node inside it) or {@code layer2_<network id>} (one /31 or /127),
 * e.g. {@code {"layer2_3":{"ipv4":"192.168.255.0/31"},"layer3_1":{"ipv4":"192.168.0.0/24"}}}. The keys are the networks
 * the CNC connects: zones read them, they never select networks themselves. Pure.
 *
 * @param byNetwork network key to its subnets (at most one per IP family, IPv4 first), sorted by key
 */
public record NetworkConnectSubnets(Map<String, List<IpPrefix>> byNetwork) {
    private static final String KEY = OvnAnnotations.NETWORK_CONNECT_SUBNET;
    private static final Pattern NETWORK_KEY = Pattern.compile("layer[23]_[1-9][0-9]{0,3}");

    public NetworkConnectSubnets {
        Map<String, List<IpPrefix>> copy = new TreeMap<>();
        byNetwork.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        byNetwork = Collections.unmodifiableMap(new LinkedHashMap<>(copy));
    }

    /** The key of a network: {@code layer3_<id>} or {@code layer2_<id>}. */
    public static String networkKey(boolean layer2, int networkId) {
        return (layer2 ? "layer2_" : "layer3_") + networkId;
    }

    /** The subnets of the network with this key, empty when the CNC does not connect it. */
    public List<IpPrefix> of(String networkKey) {
        return byNetwork.getOrDefault(networkKey, List.of());
    }

    /** The subnet of {@code family} of the network with this key. */
    public Optional<IpPrefix> of(String networkKey, IpFamily family) {
        return of(networkKey).stream().filter(p -> p.family() == family).findFirst();
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the offending entry
     */
    public static NetworkConnectSubnets parse(String value) {
        JsonNode root = AnnotationJson.read(KEY, value);
        if (!root.isObject()) {
            throw new AnnotationFormatException(
                    KEY, "must be a JSON object of network key to {ipv4, ipv6}, got " + AnnotationJson.describe(root));
        }
        Map<String, List<IpPrefix>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            if (!NETWORK_KEY.matcher(e.getKey()).matches()) {
                throw new AnnotationFormatException(
                        KEY, "unknown network key \"" + e.getKey() + "\" (expected layer3_<id> or layer2_<id>)");
            }
            IfaddrJson pair = IfaddrJson.parse(KEY, e.getValue().toString());
            List<IpPrefix> subnets = IfaddrJson.all(pair.ipv4(), pair.ipv6());
            for (IpPrefix p : subnets) {
                if (!p.isNetwork()) {
                    throw new AnnotationFormatException(
                            KEY, "network \"" + e.getKey() + "\": " + p + " has host bits set");
                }
            }
            out.put(e.getKey(), subnets);
        }
        return new NetworkConnectSubnets(out);
    }

    /** The annotation value, compact JSON with networks sorted by key. */
    public String format() {
        ObjectNode root = AnnotationJson.MAPPER.createObjectNode();
        byNetwork.forEach((network, subnets) -> {
            ObjectNode pair = root.putObject(network);
            subnets.forEach(s -> pair.put(s.family().key(), s.toString()));
        });
        return AnnotationJson.write(root);
    }
}
