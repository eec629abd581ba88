package io.kovn.sandbox.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ovn-nbctl --format=json --columns=name,protocol,vips list Load_Balancer}, read for the load
 * balancers that hold one VIP. Pure.
 */
final class LoadBalancerList {
    private static final ObjectMapper JSON = new ObjectMapper();

    private LoadBalancerList() {}

    /**
     * @param vip {@code IP:PORT} as OVN keys it
     * @param protocol tcp, udp or sctp (a load balancer without a protocol is tcp, as in OVN)
     */
    static List<String> withVip(String json, String vip, String protocol) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException("ovn-nbctl printed no JSON: " + json, e);
        }
        List<String> headings = new ArrayList<>();
        root.path("headings").forEach(h -> headings.add(h.asText()));
        int name = headings.indexOf("name");
        int proto = headings.indexOf("protocol");
        int vips = headings.indexOf("vips");
        List<String> out = new ArrayList<>();
        for (JsonNode row : root.path("data")) {
            JsonNode p = row.path(proto);
            String rowProtocol = p.isTextual() ? p.asText() : "tcp"; // ["set",[]]: unset
            if (!rowProtocol.equalsIgnoreCase(protocol)) continue;
            for (JsonNode pair : row.path(vips).path(1)) {
                if (pair.path(0).asText().equals(vip)) {
                    out.add(row.path(name).asText());
                    break;
                }
            }
        }
        return List.copyOf(out.stream().sorted().toList());
    }
}
