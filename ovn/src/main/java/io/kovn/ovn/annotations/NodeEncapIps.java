package io.kovn.ovn.annotations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code k8s.ovn.org/node-encap-ips}: the node's tunnel endpoint addresses, {@code ["172.18.0.2"]}.
 *
 * @param ips the addresses in written order, at least one, no duplicates
 */
public record NodeEncapIps(List<InetAddress> ips) {
    private static final String KEY = OvnAnnotations.NODE_ENCAP_IPS;

    public NodeEncapIps {
        ips = List.copyOf(ips);
        if (ips.isEmpty()) {
            throw new AnnotationFormatException(KEY, "no encap IP");
        }
        if (ips.stream().distinct().count() != ips.size()) {
            throw new AnnotationFormatException(KEY, "duplicate encap IP");
        }
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException naming the offending entry
     */
    public static NodeEncapIps parse(String value) {
        JsonNode root = AnnotationJson.read(KEY, value);
        List<String> texts = AnnotationJson.strings(KEY, root, "value");
        List<InetAddress> ips = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            ips.add(AnnotationJson.ip(KEY, texts.get(i), "value[" + i + "]"));
        }
        return new NodeEncapIps(ips);
    }

    /** The annotation value, e.g. {@code ["172.18.0.2"]}. */
    public String format() {
        ArrayNode list = AnnotationJson.MAPPER.createArrayNode();
        ips.forEach(ip -> list.add(IpLiterals.format(ip)));
        return AnnotationJson.write(list);
    }

    /** The addresses as text, in order. */
    public List<String> texts() {
        return ips.stream().map(IpLiterals::format).toList();
    }
}
