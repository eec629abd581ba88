package io.kovn.identity.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the {@code node-subnets} and {@code pod-networks} annotations (formats of reference-facts). */
public final class NetworkAnnotations {
    private static final ObjectMapper JSON = new ObjectMapper();

    private NetworkAnnotations() {}

    /**
     * Subnets per network from {@code {"default":["10.244.0.0/24"]}} (a single string is accepted too, as older writers
     * produce).
     */
    public static Map<String, List<Cidr>> nodeSubnets(String annotation) {
        JsonNode root = read(annotation, "node-subnets");
        Map<String, List<Cidr>> subnets = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> network : root.properties()) {
            List<Cidr> cidrs = new ArrayList<>();
            JsonNode value = network.getValue();
            if (value.isTextual()) {
                cidrs.add(Cidr.parse(value.asText()));
            } else if (value.isArray()) {
                for (JsonNode cidr : value) {
                    cidrs.add(Cidr.parse(text(cidr, "node-subnets")));
                }
            } else {
                throw new IllegalArgumentException(
                        "node-subnets: network " + network.getKey() + " is not a list of CIDRs");
            }
            subnets.put(network.getKey(), List.copyOf(cidrs));
        }
        return subnets;
    }

    /**
     * Pod IP addresses per network key from {@code {"default":{"ip_addresses":["10.244.1.3/24"],...}}} (also the older
     * single {@code ip_address}).
     */
    public static Map<String, List<byte[]>> podIps(String annotation) {
        JsonNode root = read(annotation, "pod-networks");
        Map<String, List<byte[]>> ips = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> network : root.properties()) {
            if (!network.getValue().isObject()) {
                throw new IllegalArgumentException("pod-networks: network " + network.getKey() + " is not an object");
            }
            List<byte[]> addresses = new ArrayList<>();
            JsonNode list = network.getValue().path("ip_addresses");
            if (!list.isMissingNode() && !list.isArray()) {
                throw new IllegalArgumentException("pod-networks: ip_addresses is not a list");
            }
            for (JsonNode ip : list) {
                addresses.add(hostAddress(text(ip, "pod-networks")));
            }
            JsonNode single = network.getValue().path("ip_address");
            if (!single.isMissingNode()) {
                addresses.add(hostAddress(text(single, "pod-networks")));
            }
            ips.put(network.getKey(), List.copyOf(addresses));
        }
        return ips;
    }

    private static byte[] hostAddress(String cidr) {
        int slash = cidr.indexOf('/');
        Cidr.parse(cidr);
        return Cidr.address(slash < 0 ? cidr : cidr.substring(0, slash));
    }

    private static JsonNode read(String annotation, String what) {
        try {
            JsonNode root = JSON.readTree(annotation);
            if (root == null || !root.isObject()) {
                throw new IllegalArgumentException(what + " is not a JSON object");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(what + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static String text(JsonNode node, String what) {
        if (!node.isTextual()) {
            throw new IllegalArgumentException(what + ": " + node + " is not a string");
        }
        return node.asText();
    }
}
