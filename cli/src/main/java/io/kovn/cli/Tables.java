package io.kovn.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Table output for {@code kovn get}: the columns an operator of this kind looks at first. */
final class Tables {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Tables() {}

    /**
     * The table of {@code items}.
     *
     * @param wide {@code -o wide}: the columns of {@link #wideHeader} too
     * @param namespaceColumn a NAMESPACE column first (kubectl shows it with {@code -A} only)
     */
    static String render(Kinds k, List<GenericKubernetesResource> items, boolean wide, boolean namespaceColumn) {
        boolean ns = k.namespaced && namespaceColumn;
        List<String> header = new ArrayList<>();
        if (ns) header.add("NAMESPACE");
        header.add("NAME");
        header.addAll(extraHeader(k));
        if (wide) header.addAll(wideHeader(k));
        List<List<String>> rows = new ArrayList<>();
        rows.add(header);
        for (GenericKubernetesResource r : items) {
            List<String> row = new ArrayList<>();
            if (ns) row.add(r.getMetadata().getNamespace());
            row.add(r.getMetadata().getName());
            row.addAll(extra(k, r));
            if (wide) row.addAll(wideExtra(k, r));
            rows.add(row);
        }
        return format(rows);
    }

    /** What {@code -o wide} adds: where an object is on the network, beyond its first look. */
    private static List<String> wideHeader(Kinds k) {
        return switch (k) {
            case POD -> List.of("IPS", "NETWORKS");
            case NODE -> List.of("INTERNAL-IP", "ENCAP-IPS", "TRANSIT-IP", "TRUST-ZONES");
            case SERVICE -> List.of("TYPE", "CLUSTER-IPS", "PORTS");
            case EVENT -> List.of("COUNT", "LAST-SEEN");
            default -> List.of();
        };
    }

    private static List<String> wideExtra(Kinds k, GenericKubernetesResource r) {
        Map<String, String> ann = r.getMetadata().getAnnotations() == null
                ? Map.of()
                : r.getMetadata().getAnnotations();
        return switch (k) {
            case POD -> List.of(joined(r, "ip", "status", "podIPs"), podNetworks(ann));
            case NODE ->
                List.of(
                        internalIp(r),
                        ann.getOrDefault("k8s.ovn.org/node-encap-ips", ""),
                        ann.getOrDefault("k8s.ovn.org/node-transit-switch-port-ifaddr", ""),
                        ann.getOrDefault("k8s.ovn.org/trust-zones", ""));
            case SERVICE -> List.of(str(r, "spec", "type"), joined(r, null, "spec", "clusterIPs"), ports(r));
            case EVENT -> List.of(str(r, "count"), str(r, "lastTimestamp"));
            default -> List.of();
        };
    }

    /** The networks a pod is attached to: the keys of its {@code k8s.ovn.org/pod-networks} annotation. */
    private static String podNetworks(Map<String, String> ann) {
        String json = ann.get("k8s.ovn.org/pod-networks");
        if (json == null) return "";
        try {
            List<String> names = new ArrayList<>();
            JSON.readTree(json).fieldNames().forEachRemaining(names::add);
            return String.join(",", names);
        } catch (JsonProcessingException e) {
            return "?";
        }
    }

    private static String internalIp(GenericKubernetesResource r) {
        if (!(r.getAdditionalProperties().get("status") instanceof Map<?, ?> s)
                || !(s.get("addresses") instanceof List<?> addresses)) return "";
        return addresses.stream()
                .filter(a -> a instanceof Map<?, ?> m && "InternalIP".equals(m.get("type")))
                .map(a -> String.valueOf(((Map<?, ?>) a).get("address")))
                .reduce((a, b) -> a + "," + b)
                .orElse("");
    }

    private static String ports(GenericKubernetesResource r) {
        if (!(r.getAdditionalProperties().get("spec") instanceof Map<?, ?> s)
                || !(s.get("ports") instanceof List<?> ports)) return "";
        return ports.stream()
                .filter(p -> p instanceof Map<?, ?>)
                .map(p -> {
                    Map<?, ?> m = (Map<?, ?>) p;
                    String port = m.get("port") + "/" + (m.get("protocol") == null ? "TCP" : m.get("protocol"));
                    return m.get("nodePort") == null
                            ? port
                            : m.get("port") + ":" + m.get("nodePort") + "/"
                                    + (m.get("protocol") == null ? "TCP" : m.get("protocol"));
                })
                .reduce((a, b) -> a + "," + b)
                .orElse("");
    }

    /** A list field joined by commas; {@code key} picks a field of each element (status.podIPs[].ip). */
    private static String joined(GenericKubernetesResource r, String key, String... path) {
        Object cur = r.getAdditionalProperties();
        for (String p : path) {
            if (!(cur instanceof Map<?, ?> m)) return "";
            cur = m.get(p);
        }
        if (!(cur instanceof List<?> l)) return "";
        return l.stream()
                .map(e -> key != null && e instanceof Map<?, ?> m ? String.valueOf(m.get(key)) : String.valueOf(e))
                .reduce((a, b) -> a + "," + b)
                .orElse("");
    }

    private static List<String> extraHeader(Kinds k) {
        return switch (k) {
            case POD -> List.of("NODE", "IP", "PHASE");
            case NODE -> List.of("NODE-ID", "SUBNETS", "CHASSIS");
            case ADMIN_NETWORK_POLICY -> List.of("PRIORITY", "READY-ZONES");
            case BASELINE_ADMIN_NETWORK_POLICY -> List.of("READY-ZONES");
            case CLUSTER_NETWORK_POLICY -> List.of("TIER", "PRIORITY", "READY-ZONES");
            case EVENT -> List.of("TYPE", "REASON", "OBJECT", "MESSAGE");
            case CSR -> List.of("REQUESTOR", "CONDITION", "ISSUED");
            case USER_DEFINED_NETWORK, CLUSTER_USER_DEFINED_NETWORK -> List.of("ID", "TOPOLOGY", "CREATED", "MESSAGE");
            default -> List.of();
        };
    }

    private static List<String> extra(Kinds k, GenericKubernetesResource r) {
        Map<String, String> ann = r.getMetadata().getAnnotations() == null
                ? Map.of()
                : r.getMetadata().getAnnotations();
        return switch (k) {
            case POD -> List.of(str(r, "spec", "nodeName"), str(r, "status", "podIP"), str(r, "status", "phase"));
            case NODE ->
                List.of(
                        ann.getOrDefault("k8s.ovn.org/node-id", ""),
                        ann.getOrDefault("k8s.ovn.org/node-subnets", ""),
                        ann.getOrDefault("k8s.ovn.org/node-chassis-id", ""));
            case ADMIN_NETWORK_POLICY -> List.of(str(r, "spec", "priority"), readyZones(r));
            case BASELINE_ADMIN_NETWORK_POLICY -> List.of(readyZones(r));
            case CLUSTER_NETWORK_POLICY -> List.of(str(r, "spec", "tier"), str(r, "spec", "priority"), readyZones(r));
            case CSR ->
                List.of(
                        str(r, "spec", "username"),
                        csrCondition(r),
                        str(r, "status", "certificate").isEmpty() ? "no" : "yes");
            case EVENT ->
                List.of(
                        str(r, "type"),
                        str(r, "reason"),
                        str(r, "involvedObject", "kind") + "/" + str(r, "involvedObject", "name"),
                        str(r, "message"));
            case USER_DEFINED_NETWORK -> network(r, ann, str(r, "spec", "topology"));
            case CLUSTER_USER_DEFINED_NETWORK -> network(r, ann, str(r, "spec", "network", "topology"));
            default -> List.of();
        };
    }

    /** A network's id, topology, and its NetworkCreated condition: {@code True/NetworkCreated} and the message. */
    private static List<String> network(GenericKubernetesResource r, Map<String, String> ann, String topology) {
        Object status = r.getAdditionalProperties().get("status");
        String created = "";
        String message = "";
        if (status instanceof Map<?, ?> s && s.get("conditions") instanceof List<?> conds) {
            for (Object c : conds) {
                if (c instanceof Map<?, ?> m && "NetworkCreated".equals(m.get("type"))) {
                    created = m.get("status") + "/" + m.get("reason");
                    message = String.valueOf(m.get("message"));
                }
            }
        }
        return List.of(ann.getOrDefault("k8s.ovn.org/network-id", ""), topology, created, message);
    }

    private static String csrCondition(GenericKubernetesResource r) {
        Object status = r.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> conds) || conds.isEmpty())
            return "Pending";
        return conds.stream()
                .map(c -> c instanceof Map<?, ?> m ? m.get("type") + "/" + m.get("reason") : "")
                .reduce((a, b) -> a + "," + b)
                .orElse("");
    }

    @SuppressWarnings("unchecked")
    private static String readyZones(GenericKubernetesResource r) {
        Object status = r.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> conds)) return "";
        long ready = conds.stream()
                .filter(c -> c instanceof Map<?, ?> m && "True".equals(m.get("status")))
                .count();
        return ready + "/" + conds.size();
    }

    private static String str(GenericKubernetesResource r, String... path) {
        Object cur = r.getAdditionalProperties();
        for (String p : path) {
            if (!(cur instanceof Map<?, ?> m)) return "";
            cur = m.get(p);
        }
        return cur == null ? "" : Objects.toString(cur);
    }

    static String format(List<List<String>> rows) {
        int cols = rows.get(0).size();
        int[] width = new int[cols];
        for (List<String> row : rows)
            for (int i = 0; i < cols; i++)
                width[i] = Math.max(width[i], row.get(i).length());
        StringBuilder sb = new StringBuilder();
        for (List<String> row : rows) {
            for (int i = 0; i < cols; i++) {
                sb.append(i == cols - 1 ? row.get(i) : String.format("%-" + (width[i] + 3) + "s", row.get(i)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
