package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code k8s.ovn.org/pod-networks}: the pod's addresses per network, written exactly as the reference:
 * {@code {"default":{"ip_addresses":["10.244.1.3/24"],"mac_address":"0a:58:0a:f4:01:03",
 * "gateway_ips":["10.244.1.1"],"routes":[],"role":"primary"}}}.
 *
 * <p>Reading also accepts the reference's legacy single-value keys {@code ip_address} and {@code gateway_ip}, and
 * ignores keys kovn does not use (e.g. {@code tunnel_id}); a missing {@code role} means primary.
 *
 * @param byNetwork network name to entry, sorted by name
 */
public record PodNetworks(Map<String, PodNetwork> byNetwork) {
    private static final String KEY = OvnAnnotations.POD_NETWORKS;

    public PodNetworks {
        byNetwork = Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(byNetwork)));
    }

    /** An annotation holding only the default network's entry. */
    public static PodNetworks ofDefault(PodNetwork network) {
        return new PodNetworks(Map.of(OvnAnnotations.DEFAULT_NETWORK, network));
    }

    /** The default network's entry, if present. */
    public Optional<PodNetwork> defaultNetwork() {
        return Optional.ofNullable(byNetwork.get(OvnAnnotations.DEFAULT_NETWORK));
    }

    /**
     * The entry of the pod's primary user-defined network, if it has one: a key other than {@code default} (the
     * network's attachment, {@code <namespace>/<UDN or CUDN name>}) with role {@code primary}. The default network's
     * entry is then the pod's infrastructure interface.
     */
    public Optional<Map.Entry<String, PodNetwork>> primaryUserDefined() {
        return byNetwork.entrySet().stream()
                .filter(e -> e.getKey().indexOf('/') > 0
                        && PodNetwork.ROLE_PRIMARY.equals(e.getValue().role()))
                .findFirst();
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the network and field at fault
     */
    public static PodNetworks parse(String value) {
        JsonNode root = AnnotationJson.read(KEY, value);
        if (!root.isObject()) {
            throw new AnnotationFormatException(
                    KEY, "must be a JSON object of network name to entry, got " + AnnotationJson.describe(root));
        }
        Map<String, PodNetwork> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            out.put(e.getKey(), parseEntry("network \"" + e.getKey() + "\"", e.getValue()));
        }
        return new PodNetworks(out);
    }

    /** The annotation value, compact JSON in the reference's key order. */
    public String format() {
        ObjectNode root = AnnotationJson.MAPPER.createObjectNode();
        byNetwork.forEach((name, n) -> {
            ObjectNode o = root.putObject(name);
            ArrayNode ips = o.putArray("ip_addresses");
            n.ipAddresses().forEach(p -> ips.add(p.toString()));
            o.put("mac_address", n.macAddress());
            ArrayNode gws = o.putArray("gateway_ips");
            n.gatewayIps().forEach(g -> gws.add(IpLiterals.format(g)));
            ArrayNode routes = o.putArray("routes");
            n.routes()
                    .forEach(r -> routes.addObject()
                            .put("dest", r.dest().toString())
                            .put("nextHop", IpLiterals.format(r.nextHop())));
            o.put("role", n.role());
        });
        return AnnotationJson.write(root);
    }

    private static PodNetwork parseEntry(String where, JsonNode node) {
        if (!node.isObject()) {
            throw new AnnotationFormatException(
                    KEY, where + " must be an object, got " + AnnotationJson.describe(node));
        }
        List<IpPrefix> ips = new ArrayList<>();
        for (String t : listOrLegacy(node, "ip_addresses", "ip_address", where)) {
            ips.add(AnnotationJson.cidr(KEY, t, where + " ip_addresses"));
        }
        if (ips.isEmpty()) {
            throw new AnnotationFormatException(KEY, where + " has no ip_addresses");
        }
        String mac = AnnotationJson.text(KEY, node.get("mac_address"), where + " mac_address");
        if (!MacAddresses.isValid(mac)) {
            throw new AnnotationFormatException(KEY, where + " mac_address: not a lower-case MAC: \"" + mac + "\"");
        }
        List<InetAddress> gateways = new ArrayList<>();
        for (String t : listOrLegacy(node, "gateway_ips", "gateway_ip", where)) {
            gateways.add(AnnotationJson.ip(KEY, t, where + " gateway_ips"));
        }
        List<PodRoute> routes = new ArrayList<>();
        JsonNode routesNode = node.get("routes");
        if (routesNode != null && !routesNode.isNull()) {
            if (!routesNode.isArray()) {
                throw new AnnotationFormatException(KEY, where + " routes must be a list");
            }
            for (int i = 0; i < routesNode.size(); i++) {
                routes.add(parseRoute(where + " routes[" + i + "]", routesNode.get(i)));
            }
        }
        JsonNode roleNode = node.get("role");
        String role = roleNode == null ? PodNetwork.ROLE_PRIMARY : AnnotationJson.text(KEY, roleNode, where + " role");
        return new PodNetwork(ips, mac, gateways, routes, role);
    }

    private static List<String> listOrLegacy(JsonNode node, String listKey, String legacyKey, String where) {
        JsonNode list = node.get(listKey);
        if (list != null && !list.isNull()) {
            return AnnotationJson.strings(KEY, list, where + " " + listKey);
        }
        JsonNode legacy = node.get(legacyKey);
        if (legacy != null
                && !legacy.isNull()
                && !(legacy.isTextual() && legacy.textValue().isEmpty())) {
            return List.of(AnnotationJson.text(KEY, legacy, where + " " + legacyKey));
        }
        return List.of();
    }

    private static PodRoute parseRoute(String where, JsonNode node) {
        if (!node.isObject()) {
            throw new AnnotationFormatException(KEY, where + " must be an object");
        }
        IpPrefix dest =
                AnnotationJson.cidr(KEY, AnnotationJson.text(KEY, node.get("dest"), where + " dest"), where + " dest");
        InetAddress nextHop = AnnotationJson.ip(
                KEY, AnnotationJson.text(KEY, node.get("nextHop"), where + " nextHop"), where + " nextHop");
        try {
            return new PodRoute(dest, nextHop);
        } catch (IllegalArgumentException e) {
            throw new AnnotationFormatException(KEY, where + ": " + e.getMessage());
        }
    }
}
