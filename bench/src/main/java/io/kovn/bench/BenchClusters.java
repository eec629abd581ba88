package io.kovn.bench;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.HashMap;
import java.util.Map;

/** Nodes as the cluster manager and node agents leave them, for zone benchmarks. */
final class BenchClusters {
    private BenchClusters() {}

    /** Node {@code i}: id i+2, subnet 10.244.i/24 (i < 256) or 10.245.(i-256)/24, transit, chassis, encap. */
    static void node(KubernetesClient client, String name, int i, String trustZones) {
        int id = i + 2;
        String subnet = i < 256 ? "10.244." + i + ".0/24" : "10.245." + (i - 256) + ".0/24";
        Map<String, String> a = new HashMap<>();
        a.put(OvnAnnotations.NODE_ID, Integer.toString(id));
        a.put(OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"" + subnet + "\"]}");
        a.put(
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR,
                "{\"ipv4\":\"100.88." + (id >> 8) + "." + (id & 255) + "/16\"}");
        a.put(OvnAnnotations.NODE_CHASSIS_ID, "chassis-" + name);
        a.put(OvnAnnotations.NODE_ENCAP_IPS, "[\"172.16." + (id >> 8) + "." + (id & 255) + "\"]");
        if (trustZones != null) {
            a.put(OvnAnnotations.TRUST_ZONES, trustZones);
        }
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withAnnotations(a)
                        .endMetadata()
                        .build())
                .create();
    }

    static void annotate(KubernetesClient client, String node, String key, String value) {
        client.nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"" + key + "\":" + (value == null ? "null" : quote(value))
                                + "}}}");
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
