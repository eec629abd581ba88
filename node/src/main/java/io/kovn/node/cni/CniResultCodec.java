package io.kovn.node.cni;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes {@link CniResult}s and errors as the CNI specification's JSON for a given cniVersion, and decodes a
 * {@code prevResult}. Pure: no I/O.
 *
 * <p>Version differences: 0.3.x/0.4.0 addresses carry {@code "version": "4"|"6"}; 1.0.0 dropped it; 1.1.0 added the
 * interface {@code mtu}.
 */
public final class CniResultCodec {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CniResultCodec() {}

    /** The result JSON for {@code cniVersion} (a supported version). */
    public static ObjectNode encode(CniResult result, String cniVersion) {
        boolean legacy = !CniVersions.atLeast(cniVersion, "1.0.0");
        boolean v11 = CniVersions.atLeast(cniVersion, "1.1.0");
        ObjectNode out = JSON.createObjectNode();
        out.put("cniVersion", cniVersion);
        if (!result.interfaces().isEmpty()) {
            ArrayNode interfaces = out.putArray("interfaces");
            for (CniResult.Interface i : result.interfaces()) {
                ObjectNode n = interfaces.addObject().put("name", i.name());
                putIfSet(n, "mac", i.mac());
                if (v11 && i.mtu() > 0) {
                    n.put("mtu", i.mtu());
                }
                putIfSet(n, "sandbox", i.sandbox());
            }
        }
        if (!result.ips().isEmpty()) {
            ArrayNode ips = out.putArray("ips");
            for (CniResult.IpConfig ip : result.ips()) {
                ObjectNode n = ips.addObject();
                if (legacy) {
                    n.put("version", ip.family());
                }
                if (ip.interfaceIndex() >= 0) {
                    n.put("interface", ip.interfaceIndex());
                }
                n.put("address", ip.address());
                putIfSet(n, "gateway", ip.gateway());
            }
        }
        if (!result.routes().isEmpty()) {
            ArrayNode routes = out.putArray("routes");
            for (CniResult.Route r : result.routes()) {
                putIfSet(routes.addObject().put("dst", r.dst()), "gw", r.gw());
            }
        }
        if (!result.dns().isEmpty()) {
            CniResult.Dns d = result.dns();
            ObjectNode n = out.putObject("dns");
            putAll(n, "nameservers", d.nameservers());
            putIfSet(n, "domain", d.domain());
            putAll(n, "search", d.search());
            putAll(n, "options", d.options());
        }
        return out;
    }

    /** The error JSON: {@code {"cniVersion","code","msg","details"}} (details omitted when empty). */
    public static ObjectNode encodeError(CniException e, String cniVersion) {
        ObjectNode out = JSON.createObjectNode();
        out.put("cniVersion", cniVersion);
        out.put("code", e.code());
        out.put("msg", e.msg());
        putIfSet(out, "details", e.details());
        return out;
    }

    /**
     * Decodes a {@code prevResult} of any supported version (the family field of 0.3.x/0.4.0 is derived from the
     * address, so it is ignored).
     *
     * @throws CniException {@link CniException#INVALID_NETWORK_CONFIG} when the structure is wrong
     */
    public static CniResult decode(JsonNode node) throws CniException {
        if (!node.isObject()) {
            throw invalid("prevResult must be an object");
        }
        List<CniResult.Interface> interfaces = new ArrayList<>();
        for (JsonNode i : array(node, "interfaces")) {
            interfaces.add(new CniResult.Interface(
                    text(i, "name", true),
                    text(i, "mac", false),
                    text(i, "sandbox", false),
                    i.path("mtu").asInt(0)));
        }
        List<CniResult.IpConfig> ips = new ArrayList<>();
        for (JsonNode ip : array(node, "ips")) {
            JsonNode index = ip.get("interface");
            if (index != null && !index.canConvertToInt()) {
                throw invalid("prevResult ips[].interface must be an integer");
            }
            ips.add(new CniResult.IpConfig(
                    text(ip, "address", true), text(ip, "gateway", false), index == null ? -1 : index.asInt()));
        }
        List<CniResult.Route> routes = new ArrayList<>();
        for (JsonNode r : array(node, "routes")) {
            routes.add(new CniResult.Route(text(r, "dst", true), text(r, "gw", false)));
        }
        JsonNode d = node.path("dns");
        CniResult.Dns dns = d.isObject()
                ? new CniResult.Dns(
                        strings(d, "nameservers"),
                        text(d, "domain", false),
                        strings(d, "search"),
                        strings(d, "options"))
                : CniResult.Dns.EMPTY;
        return new CniResult(interfaces, ips, routes, dns);
    }

    private static Iterable<JsonNode> array(JsonNode parent, String field) throws CniException {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            return List.of();
        }
        if (!n.isArray()) {
            throw invalid("prevResult " + field + " must be an array");
        }
        return n;
    }

    private static String text(JsonNode parent, String field, boolean required) throws CniException {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw invalid("prevResult entry lacks \"" + field + "\"");
            }
            return "";
        }
        if (!n.isTextual()) {
            throw invalid("prevResult \"" + field + "\" must be a string");
        }
        return n.asText();
    }

    private static List<String> strings(JsonNode parent, String field) throws CniException {
        List<String> out = new ArrayList<>();
        for (JsonNode n : array(parent, field)) {
            out.add(n.asText());
        }
        return out;
    }

    private static void putIfSet(ObjectNode n, String field, String value) {
        if (!value.isEmpty()) {
            n.put(field, value);
        }
    }

    private static void putAll(ObjectNode n, String field, List<String> values) {
        if (!values.isEmpty()) {
            ArrayNode a = n.putArray(field);
            values.forEach(a::add);
        }
    }

    private static CniException invalid(String msg) {
        return new CniException(CniException.INVALID_NETWORK_CONFIG, "invalid prevResult", msg);
    }
}
