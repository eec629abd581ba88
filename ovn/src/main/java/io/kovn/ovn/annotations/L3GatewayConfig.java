package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code k8s.ovn.org/l3-gateway-config}: the node's gateway as its node agent sees it, per network (only
 * {@code "default"} here), in the reference's JSON:
 *
 * <pre>{"default":{"mode":"shared","bridge-id":"br-phy","interface-id":"br-phy_node-1",
 *   "mac-address":"0a:58:ac:1e:00:02","ip-addresses":["172.30.0.2/24"],"ip-address":"172.30.0.2/24",
 *   "next-hops":["172.30.0.254"],"next-hop":"172.30.0.254","node-port-enable":"true"}}</pre>
 *
 * The singular {@code ip-address}/{@code next-hop} are the first of the lists (older readers use them); the reader
 * accepts either. Mode {@code disabled} carries nothing else.
 *
 * @param mode {@code shared} (kovn writes only this), {@code local} or {@code disabled}
 * @param bridgeId the OVS bridge holding the node IP (the external bridge)
 * @param interfaceId the localnet port's name and its OVS interface id, {@code <bridge>_<node>}
 * @param macAddress the bridge's MAC, shared by the gateway router's external port
 * @param ipAddresses the node IPs with prefix length, one per family
 * @param nextHops the default gateways, one per family (may be empty: no default route)
 * @param nodePortEnable whether NodePorts are served
 */
public record L3GatewayConfig(
        String mode,
        String bridgeId,
        String interfaceId,
        String macAddress,
        List<IpPrefix> ipAddresses,
        List<InetAddress> nextHops,
        boolean nodePortEnable) {
    private static final String KEY = OvnAnnotations.L3_GATEWAY_CONFIG;
    public static final String MODE_SHARED = "shared";
    public static final String MODE_LOCAL = "local";
    public static final String MODE_DISABLED = "disabled";
    private static final Set<String> MODES = Set.of(MODE_SHARED, MODE_LOCAL, MODE_DISABLED);

    public L3GatewayConfig {
        Objects.requireNonNull(mode, "mode");
        ipAddresses = List.copyOf(ipAddresses);
        nextHops = List.copyOf(nextHops);
        if (!MODES.contains(mode)) {
            throw new AnnotationFormatException(
                    KEY, "mode: unknown gateway mode \"" + mode + "\" (expected shared, local, disabled)");
        }
        if (!mode.equals(MODE_DISABLED)) {
            if (bridgeId == null || bridgeId.isEmpty()) {
                throw new AnnotationFormatException(KEY, "bridge-id is missing");
            }
            if (interfaceId == null || interfaceId.isEmpty()) {
                throw new AnnotationFormatException(KEY, "interface-id is missing");
            }
            if (!MacAddresses.isValid(macAddress)) {
                throw new AnnotationFormatException(KEY, "mac-address: not a MAC address: " + macAddress);
            }
            if (ipAddresses.isEmpty()) {
                throw new AnnotationFormatException(KEY, "ip-addresses is missing");
            }
        }
    }

    /** A shared gateway on {@code bridge} for {@code node}: interface id {@code <bridge>_<node>}, NodePorts on. */
    public static L3GatewayConfig shared(
            String bridge, String node, String mac, List<IpPrefix> ips, List<InetAddress> nextHops) {
        return new L3GatewayConfig(MODE_SHARED, bridge, bridge + "_" + node, mac, ips, nextHops, true);
    }

    /** The node IP of {@code family}, if the gateway has one. */
    public Optional<IpPrefix> ipOf(IpFamily family) {
        return ipAddresses.stream().filter(p -> p.family() == family).findFirst();
    }

    /** The next hop of {@code family}, if any. */
    public Optional<InetAddress> nextHopOf(IpFamily family) {
        return nextHops.stream().filter(ip -> IpFamily.of(ip) == family).findFirst();
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the offending key
     */
    public static L3GatewayConfig parse(String value) {
        JsonNode root = AnnotationJson.read(KEY, value);
        if (!root.isObject()) {
            throw new AnnotationFormatException(
                    KEY, "must be a JSON object keyed by network, got " + AnnotationJson.describe(root));
        }
        JsonNode gw = root.get(OvnAnnotations.DEFAULT_NETWORK);
        if (gw == null || !gw.isObject()) {
            throw new AnnotationFormatException(
                    KEY, "network \"default\" must be an object, got " + AnnotationJson.describe(gw));
        }
        String mode = AnnotationJson.text(KEY, gw.get("mode"), "mode");
        if (mode.equals(MODE_DISABLED)) {
            return new L3GatewayConfig(mode, null, null, null, List.of(), List.of(), false);
        }
        List<IpPrefix> ips = new ArrayList<>();
        for (String s : listOrSingle(gw, "ip-addresses", "ip-address")) {
            ips.add(AnnotationJson.cidr(KEY, s, "ip-addresses"));
        }
        List<InetAddress> hops = new ArrayList<>();
        for (String s : listOrSingle(gw, "next-hops", "next-hop")) {
            hops.add(AnnotationJson.ip(KEY, s, "next-hops"));
        }
        JsonNode np = gw.get("node-port-enable");
        boolean nodePort =
                np != null && AnnotationJson.text(KEY, np, "node-port-enable").equals("true");
        return new L3GatewayConfig(
                mode,
                optionalText(gw, "bridge-id"),
                optionalText(gw, "interface-id"),
                optionalText(gw, "mac-address"),
                ips,
                hops,
                nodePort);
    }

    /** The annotation value in the reference's form (keys in its order). */
    public String format() {
        ObjectNode gw = AnnotationJson.MAPPER.createObjectNode();
        gw.put("mode", mode);
        if (!mode.equals(MODE_DISABLED)) {
            gw.put("bridge-id", bridgeId);
            gw.put("interface-id", interfaceId);
            gw.put("mac-address", macAddress);
            ArrayNode ips = gw.putArray("ip-addresses");
            ipAddresses.forEach(p -> ips.add(p.toString()));
            gw.put("ip-address", ipAddresses.getFirst().toString());
            if (!nextHops.isEmpty()) {
                ArrayNode hops = gw.putArray("next-hops");
                nextHops.forEach(ip -> hops.add(IpLiterals.format(ip)));
                gw.put("next-hop", IpLiterals.format(nextHops.getFirst()));
            }
            gw.put("node-port-enable", Boolean.toString(nodePortEnable));
        }
        ObjectNode root = AnnotationJson.MAPPER.createObjectNode();
        root.set(OvnAnnotations.DEFAULT_NETWORK, gw);
        return AnnotationJson.write(root);
    }

    private static List<String> listOrSingle(JsonNode gw, String listKey, String singleKey) {
        if (gw.has(listKey)) {
            return AnnotationJson.strings(KEY, gw.get(listKey), listKey);
        }
        return gw.has(singleKey) ? List.of(AnnotationJson.text(KEY, gw.get(singleKey), singleKey)) : List.of();
    }

    private static String optionalText(JsonNode gw, String key) {
        return gw.has(key) ? AnnotationJson.text(KEY, gw.get(key), key) : null;
    }
}
