package io.kovn.policy.select;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodIP;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Namespaces, pods and nodes indexed for selection, with memoized selector results. Built once
 * per translation from the snapshot's Kubernetes objects; pure and single-threaded.
 *
 * <p>Pods that finished ({@code Succeeded}/{@code Failed}) are left out: their IPs may already
 * belong to someone else. Namespaces carry {@code kubernetes.io/metadata.name} even if the
 * API server that produced them did not add it.
 */
public final class ClusterIndex {
    /** The label the API server puts on every namespace. */
    public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    private final Map<String, Map<String, String>> namespaceLabels = new TreeMap<>();
    private final Map<String, List<PodInfo>> podsByNamespace = new HashMap<>();
    private final List<NodeInfo> nodes = new ArrayList<>();
    private final Map<LabelSelector, List<String>> namespaceSelections = new HashMap<>();
    private final Map<String, List<PodInfo>> networkedPodsByNamespace = new HashMap<>();
    private final Map<List<Object>, List<PodInfo>> podSelections = new HashMap<>();
    private final Map<List<Object>, java.util.SortedSet<String>> ipSelections = new HashMap<>();

    /** Indexes the given objects. */
    public ClusterIndex(List<Namespace> namespaces, List<Pod> pods, List<Node> nodeList) {
        for (Namespace ns : namespaces) {
            String name = ns.getMetadata().getName();
            Map<String, String> labels = new HashMap<>(ns.getMetadata().getLabels() == null ? Map.of() : ns.getMetadata().getLabels());
            labels.putIfAbsent(NAMESPACE_NAME_LABEL, name);
            namespaceLabels.put(name, Map.copyOf(labels));
        }
        for (Pod pod : pods) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            PodInfo info = podInfo(pod);
            podsByNamespace.computeIfAbsent(info.namespace(), k -> new ArrayList<>()).add(info);
        }
        podsByNamespace.values().forEach(list -> list.sort(java.util.Comparator.comparing(PodInfo::name)));
        podsByNamespace.forEach((ns, list) -> networkedPodsByNamespace.put(ns, list.stream().filter(p -> !p.hostNetwork()).toList()));
        for (Node node : nodeList) {
            nodes.add(nodeInfo(node));
        }
        nodes.sort(java.util.Comparator.comparing(NodeInfo::name));
    }

    /** The facts policies read from a pod. */
    public static PodInfo podInfo(Pod pod) {
        var meta = pod.getMetadata();
        var spec = pod.getSpec();
        var status = pod.getStatus();
        List<String> ips = new ArrayList<>();
        if (status != null && status.getPodIPs() != null && !status.getPodIPs().isEmpty()) {
            for (PodIP ip : status.getPodIPs()) {
                if (ip.getIp() != null) {
                    ips.add(ip.getIp());
                }
            }
        } else if (status != null && status.getPodIP() != null) {
            ips.add(status.getPodIP());
        }
        List<ContainerPort> named = new ArrayList<>();
        boolean hostNetwork = false;
        String nodeName = null;
        if (spec != null) {
            hostNetwork = Boolean.TRUE.equals(spec.getHostNetwork());
            nodeName = spec.getNodeName();
            if (spec.getContainers() != null) {
                for (Container c : spec.getContainers()) {
                    if (c.getPorts() == null) {
                        continue;
                    }
                    for (io.fabric8.kubernetes.api.model.ContainerPort p : c.getPorts()) {
                        if (p.getName() != null && p.getContainerPort() != null) {
                            String protocol = p.getProtocol() == null ? "tcp" : p.getProtocol().toLowerCase(Locale.ROOT);
                            named.add(new ContainerPort(p.getName(), protocol, p.getContainerPort()));
                        }
                    }
                }
            }
        }
        return new PodInfo(meta.getNamespace(), meta.getName(), meta.getLabels() == null ? Map.of() : meta.getLabels(),
                ips, hostNetwork, named, nodeName);
    }

    /** The facts {@code nodes} peers read from a node. */
    public static NodeInfo nodeInfo(Node node) {
        List<String> ips = new ArrayList<>();
        if (node.getStatus() != null && node.getStatus().getAddresses() != null) {
            for (NodeAddress a : node.getStatus().getAddresses()) {
                if ("InternalIP".equals(a.getType()) && a.getAddress() != null) {
                    ips.add(a.getAddress());
                }
            }
        }
        Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
        return new NodeInfo(node.getMetadata().getName(), labels, ips);
    }

    /** Names of the namespaces {@code selector} selects (sorted); {@code null} selects none. */
    public List<String> namespaces(LabelSelector selector) {
        if (selector == null) {
            return List.of();
        }
        return namespaceSelections.computeIfAbsent(selector, s -> namespaceLabels.entrySet().stream()
                .filter(e -> Selectors.matches(s, e.getValue())).map(Map.Entry::getKey).toList());
    }

    /** Whether the namespace exists. */
    public boolean hasNamespace(String namespace) {
        return namespaceLabels.containsKey(namespace);
    }

    /** Labels of a namespace (with {@code kubernetes.io/metadata.name}), empty if unknown. */
    public Map<String, String> namespaceLabels(String namespace) {
        return namespaceLabels.getOrDefault(namespace, Map.of());
    }

    /** Names of all namespaces, sorted. */
    public List<String> namespaceNames() {
        return List.copyOf(namespaceLabels.keySet());
    }

    /** Non-host-network pods of {@code namespace} matching {@code podSelector} ({@code null} selects none). Memoized. */
    public List<PodInfo> pods(String namespace, LabelSelector podSelector) {
        if (podSelector == null) {
            return List.of();
        }
        List<PodInfo> all = networkedPodsByNamespace.getOrDefault(namespace, List.of());
        if (Selectors.isEmpty(podSelector)) {
            return all;
        }
        return podSelections.computeIfAbsent(java.util.Arrays.asList(namespace, podSelector),
                k -> all.stream().filter(p -> Selectors.matches(podSelector, p.labels())).toList());
    }

    /** Non-host-network pods matching {@code podSelector} in namespaces matching {@code namespaceSelector}. Memoized. */
    public List<PodInfo> pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        if (namespaceSelector == null || podSelector == null) {
            return List.of();
        }
        List<Object> key = java.util.Arrays.asList(namespaceSelector, podSelector);
        List<PodInfo> cached = podSelections.get(key);
        if (cached != null) {
            return cached;
        }
        List<PodInfo> result = new ArrayList<>();
        for (String ns : namespaces(namespaceSelector)) {
            result.addAll(pods(ns, podSelector));
        }
        cached = List.copyOf(result);
        podSelections.put(key, cached);
        return cached;
    }

    /** The sorted IPs of {@link #pods(LabelSelector, LabelSelector)}. Memoized: rules sharing a selector share the work. */
    public java.util.SortedSet<String> podIps(LabelSelector namespaceSelector, LabelSelector podSelector) {
        List<Object> key = java.util.Arrays.asList(namespaceSelector, podSelector);
        java.util.SortedSet<String> cached = ipSelections.get(key);
        if (cached == null) {
            java.util.TreeSet<String> ips = new java.util.TreeSet<>();
            for (PodInfo pod : pods(namespaceSelector, podSelector)) {
                ips.addAll(pod.ips());
            }
            cached = io.kovn.policy.model.FrozenSortedSet.of(ips);
            ipSelections.put(key, cached);
        }
        return cached;
    }

    /** All non-host-network pods of the cluster. */
    public List<PodInfo> allPods() {
        List<PodInfo> result = new ArrayList<>();
        for (String ns : new java.util.TreeSet<>(podsByNamespace.keySet())) {
            for (PodInfo pod : podsByNamespace.get(ns)) {
                if (!pod.hostNetwork()) {
                    result.add(pod);
                }
            }
        }
        return result;
    }

    /** Every pod of the cluster including host-network ones, by namespace. */
    public Map<String, List<PodInfo>> podsByNamespace() {
        return new LinkedHashMap<>(podsByNamespace);
    }

    /** Nodes matching {@code selector} ({@code null} selects none), sorted by name. */
    public List<NodeInfo> nodes(LabelSelector selector) {
        return nodes.stream().filter(n -> Selectors.matches(selector, n.labels())).toList();
    }
}
