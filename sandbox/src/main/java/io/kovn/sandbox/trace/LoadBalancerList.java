package io.kovn.sandbox.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * {@code ovn-nbctl --format=json --columns=name,protocol,vips,options list Load_Balancer}, read for the load balancers
 * that hold one VIP. Pure.
 */
final class LoadBalancerList {
    /** The columns to list. */
    static final String COLUMNS = "name,protocol,vips,options";

    private static final ObjectMapper JSON = new ObjectMapper();

    private LoadBalancerList() {}

    /**
     * One load balancer holding the VIP.
     *
     * @param backends the VIP's backends as OVN has them ({@code IP:PORT}, IPv6 in brackets); empty: it rejects
     * @param skipSnat {@code options:skip_snat=true}: a gateway router keeps the client's source address
     */
    record Entry(String name, List<String> backends, boolean skipSnat) {
        Entry {
            backends = List.copyOf(backends);
        }
    }

    /**
     * @param vip {@code IP:PORT} as OVN keys it
     * @param protocol tcp, udp or sctp (a load balancer without a protocol is tcp, as in OVN)
     * @return sorted by name
     */
    static List<Entry> holding(String json, String vip, String protocol) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("ovn-nbctl printed no JSON: " + json, e);
        }
        List<String> headings = new ArrayList<>();
        root.path("headings").forEach(h -> headings.add(h.asText()));
        int name = headings.indexOf("name");
        int proto = headings.indexOf("protocol");
        int vips = headings.indexOf("vips");
        int options = headings.indexOf("options");
        List<Entry> out = new ArrayList<>();
        for (JsonNode row : root.path("data")) {
            JsonNode p = row.path(proto);
            String rowProtocol = p.isTextual() ? p.asText() : "tcp"; // ["set",[]]: unset
            if (!rowProtocol.equalsIgnoreCase(protocol)) continue;
            for (JsonNode pair : row.path(vips).path(1)) {
                if (!pair.path(0).asText().equals(vip)) continue;
                String backends = pair.path(1).asText().strip();
                boolean skipSnat = false;
                for (JsonNode option : row.path(options).path(1)) {
                    if (option.path(0).asText().equals("skip_snat"))
                        skipSnat = option.path(1).asText().equals("true");
                }
                out.add(new Entry(
                        row.path(name).asText(),
                        backends.isEmpty() ? List.of() : Arrays.asList(backends.split(",")),
                        skipSnat));
                break;
            }
        }
        out.sort(Comparator.comparing(Entry::name));
        return List.copyOf(out);
    }
}
