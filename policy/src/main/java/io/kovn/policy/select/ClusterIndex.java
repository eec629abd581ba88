package io.kovn.policy.select;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.policy.model.FrozenSortedSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Namespaces, pods and nodes indexed for selection, with memoized selector results. Pure and single-threaded. Built
 * from the snapshot's Kubernetes objects; a long-lived index is kept current with {@link #apply}, which updates the
 * objects and forgets exactly the memoized answers the change can affect, and names those {@link Selection}s so that
 * callers can forget what they derived from them ({@link #recording} records what a computation asked).
 *
 * <p>Pods that finished ({@code Succeeded}/{@code Failed}) are left out: their IPs may already belong to someone else.
 * Namespaces carry {@code kubernetes.io/metadata.name} even if the API server that produced them did not add it.
 */
public final class ClusterIndex {
    /** The label the API server puts on every namespace. */
    public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    private final Map<String, Map<String, String>> namespaceLabels = new TreeMap<>();
    private final Map<String, TreeMap<String, PodInfo>> podInfos = new HashMap<>();
    private final Map<String, List<PodInfo>> podsByNamespace = new HashMap<>();
    private final TreeMap<String, NodeInfo> nodesByName = new TreeMap<>();
    private List<NodeInfo> nodes = List.of();
    private final Map<LabelSelector, List<String>> namespaceSelections = new HashMap<>();
    private final Map<String, List<PodInfo>> networkedPodsByNamespace = new HashMap<>();
    /** Per namespace: pod selector to its pods; dropped whole when a pod of the namespace changes. */
    private final Map<String, Map<LabelSelector, List<PodInfo>>> namespacePodSelections = new HashMap<>();

    private final Map<Selection.SelectedPods, List<PodInfo>> podSelections = new HashMap<>();
    private final Map<Selection.SelectedPods, SortedSet<String>> ipSelections = new HashMap<>();
    /** IP → the indexed non-host-network pods holding it (a selection's IPs are patched only for IPs held once). */
    private final Map<String, List<PodInfo>> ipHolders = new HashMap<>();
    /**
     * One {@link Selection.SelectedPods} per pair of selector objects, and one per content: policies' selector objects
     * live as long as their specs, so a read costs two identity lookups, and equal selections are the same object (set
     * operations on them compare pointers).
     */
    private final Map<LabelSelector, Map<LabelSelector, Selection.SelectedPods>> selectedPods = new IdentityHashMap<>();

    private final Map<Selection.SelectedPods, Selection.SelectedPods> canonical = new HashMap<>();
    /** Every selection ever recorded: the ones {@link #apply} checks. */
    private final Set<Selection> known = new HashSet<>();

    private final ArrayDeque<Set<Selection>> sinks = new ArrayDeque<>();
    /** Above zero while a query answers from other queries: its own selection already covers theirs. */
    private int muted;

    /** Indexes the given objects. */
    public ClusterIndex(List<Namespace> namespaces, List<Pod> pods, List<Node> nodeList) {
        for (Namespace ns : namespaces) {
            namespaceLabels.put(ns.getMetadata().getName(), labelsOf(ns));
        }
        for (Pod pod : pods) {
            if (!finished(pod)) {
                PodInfo info = podInfo(pod);
                podInfos.computeIfAbsent(info.namespace(), k -> new TreeMap<>()).put(info.name(), info);
                count(info, 1);
            }
        }
        podInfos.keySet().forEach(this::reindexNamespace);
        for (Node node : nodeList) {
            NodeInfo info = nodeInfo(node);
            nodesByName.put(info.name(), info);
        }
        nodes = List.copyOf(nodesByName.values());
    }

    /**
     * The facts indexed for a pod, or null (absent, or finished). For bookkeeping outside the translation: it records
     * no selection read.
     */
    public PodInfo indexedPod(String namespace, String name) {
        TreeMap<String, PodInfo> byName = podInfos.get(namespace);
        return byName == null ? null : byName.get(name);
    }

    /** A namespace's labels as selectors see them: with {@code kubernetes.io/metadata.name}. */
    public static Map<String, String> labelsOf(Namespace ns) {
        String name = ns.getMetadata().getName();
        Map<String, String> labels = new HashMap<>(
                ns.getMetadata().getLabels() == null
                        ? Map.of()
                        : ns.getMetadata().getLabels());
        labels.putIfAbsent(NAMESPACE_NAME_LABEL, name);
        return Map.copyOf(labels);
    }

    /** Whether the pod finished (its IPs may be reused): such pods are not indexed. */
    public static boolean finished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private void reindexNamespace(String namespace) {
        namespacePodSelections.remove(namespace);
        TreeMap<String, PodInfo> byName = podInfos.get(namespace);
        if (byName == null || byName.isEmpty()) {
            podInfos.remove(namespace);
            podsByNamespace.remove(namespace);
            networkedPodsByNamespace.remove(namespace);
            return;
        }
        List<PodInfo> list = List.copyOf(byName.values());
        podsByNamespace.put(namespace, list);
        networkedPodsByNamespace.put(
                namespace, list.stream().filter(p -> !p.hostNetwork()).toList());
    }

    /**
     * Runs {@code work} and adds every selection it asks this index (also through memoized answers) to {@code reads};
     * nested recordings also count for the enclosing ones.
     */
    public <T> T recording(Set<Selection> reads, Supplier<T> work) {
        sinks.push(reads);
        try {
            return work.get();
        } finally {
            sinks.pop();
            if (!sinks.isEmpty()) {
                sinks.peek().addAll(reads);
            }
        }
    }

    /** Counts {@code reads} for the recording in progress (a memoized answer read them earlier). */
    public void reread(Set<Selection> reads) {
        if (!sinks.isEmpty()) {
            sinks.peek().addAll(reads);
        }
    }

    private void read(Selection selection) {
        if (muted > 0) {
            return;
        }
        known.add(selection);
        if (!sinks.isEmpty()) {
            sinks.peek().add(selection);
        }
    }

    /**
     * Brings the index up to date with {@code changes} and returns the recorded selections whose answers may differ now
     * (a superset: a selector that matched the object before or after).
     */
    public Set<Selection> apply(ClusterChanges changes) {
        Set<Selection> affected = new HashSet<>();
        Map<Selection.SelectedPods, IpPatch> ipPatches = new HashMap<>();
        for (ClusterChanges.NamespaceChange c : changes.namespaces()) {
            for (Selection s : known) {
                boolean hit = switch (s) {
                    case Selection.Namespaces n -> eitherMatches(n.selector(), c.before(), c.after());
                    case Selection.SelectedPods p -> eitherMatches(p.namespaceSelector(), c.before(), c.after());
                    case Selection.NamespaceFacts f -> f.namespace().equals(c.name());
                    default -> false;
                };
                if (hit) {
                    affected.add(s);
                }
            }
            if (c.after() == null) {
                namespaceLabels.remove(c.name());
            } else {
                namespaceLabels.put(c.name(), c.after());
            }
        }
        Set<String> touched = new HashSet<>();
        for (ClusterChanges.PodChange c : changes.pods()) {
            Map<String, String> before = c.before() == null ? null : c.before().labels();
            Map<String, String> after = c.after() == null ? null : c.after().labels();
            Map<String, String> nsLabels = namespaceLabels.getOrDefault(c.namespace(), Map.of());
            // A relabel changes only the selections the pod enters or leaves: the answers hold no
            // labels (nothing downstream reads them), so the others stay as they are.
            // (A pod whose switch port came or went arrives with equal facts before and after: every
            // selection holding it is affected.)
            boolean relabel = c.before() != null
                    && c.after() != null
                    && !before.equals(after)
                    && c.before().sameBesidesLabels(c.after());
            for (Selection s : known) {
                boolean hit = switch (s) {
                    case Selection.NamespacePods p ->
                        p.namespace().equals(c.namespace())
                                && (relabel
                                        ? movedAcross(p.podSelector(), before, after)
                                        : eitherMatches(p.podSelector(), before, after));
                    case Selection.SelectedPods p ->
                        Selectors.matches(p.namespaceSelector(), nsLabels)
                                && (relabel
                                        ? movedAcross(p.podSelector(), before, after)
                                        : eitherMatches(p.podSelector(), before, after));
                    case Selection.AllPods a -> !relabel;
                    default -> false;
                };
                if (hit) {
                    affected.add(s);
                    if (s instanceof Selection.SelectedPods p) {
                        ipPatches.computeIfAbsent(p, k -> new IpPatch()).note(c.before(), c.after());
                    }
                }
            }
            count(c.before(), -1);
            count(c.after(), 1);
            TreeMap<String, PodInfo> byName = podInfos.computeIfAbsent(c.namespace(), k -> new TreeMap<>());
            if (c.after() == null) {
                byName.remove(c.name());
            } else {
                byName.put(c.name(), c.after());
            }
            touched.add(c.namespace());
        }
        touched.forEach(this::reindexNamespace);
        for (ClusterChanges.NodeChange c : changes.nodes()) {
            for (Selection s : known) {
                if (s instanceof Selection.Nodes n
                        && eitherMatches(
                                n.selector(),
                                c.before() == null ? null : c.before().labels(),
                                c.after() == null ? null : c.after().labels())) {
                    affected.add(s);
                }
            }
            if (c.after() == null) {
                nodesByName.remove(c.name());
            } else {
                nodesByName.put(c.name(), c.after());
            }
        }
        if (!changes.nodes().isEmpty()) {
            nodes = List.copyOf(nodesByName.values());
        }
        if (!changes.namespaces().isEmpty()) {
            namespaceSelections.clear(); // cheap to recompute, and a new namespace may join any of them
        }
        // a pod selection's IPs are patched with the pods that entered or left it, when only pods
        // changed it; a namespace change (or an IP two pods hold) has it made again on next ask
        boolean onlyPods = changes.namespaces().isEmpty();
        for (Selection s : affected) {
            switch (s) {
                case Selection.Namespaces n -> namespaceSelections.remove(n.selector());
                case Selection.NamespacePods p -> namespacePodSelections.remove(p.namespace());
                case Selection.SelectedPods p -> {
                    podSelections.remove(p);
                    SortedSet<String> ips = ipSelections.remove(p);
                    IpPatch patch = ipPatches.get(p);
                    if (onlyPods && ips instanceof FrozenSortedSet frozen && patch != null) {
                        patch.applyTo(frozen, p, this).ifPresent(patched -> ipSelections.put(p, patched));
                    }
                }
                default -> {}
            }
        }
        return affected;
    }

    /** Which indexed non-host-network pods hold each IP (almost always one). */
    private void count(PodInfo pod, int sign) {
        if (pod != null && !pod.hostNetwork()) {
            for (String ip : pod.ips()) {
                if (sign > 0) {
                    ipHolders.computeIfAbsent(ip, k -> new ArrayList<>(1)).add(pod);
                } else {
                    List<PodInfo> holders = ipHolders.get(ip);
                    if (holders != null) {
                        holders.remove(pod);
                        if (holders.isEmpty()) {
                            ipHolders.remove(ip);
                        }
                    }
                }
            }
        }
    }

    /**
     * The IPs a batch of pod changes touched in one pod selection; once the index holds the batch, each IP is in the
     * selection exactly when the one pod holding it is selected.
     */
    private static final class IpPatch {
        private final Set<String> touched = new LinkedHashSet<>();

        void note(PodInfo before, PodInfo after) {
            if (before != null) {
                touched.addAll(before.ips());
            }
            if (after != null) {
                touched.addAll(after.ips());
            }
        }

        /** The patched IPs, or empty when an IP it touches is held by two pods (then the selection is made again). */
        Optional<FrozenSortedSet> applyTo(FrozenSortedSet ips, Selection.SelectedPods selection, ClusterIndex index) {
            List<String> add = new ArrayList<>();
            List<String> remove = new ArrayList<>();
            for (String ip : touched) {
                List<PodInfo> holders = index.ipHolders.getOrDefault(ip, List.of());
                if (holders.size() > 1) {
                    return Optional.empty();
                }
                boolean selected = holders.size() == 1 && index.selects(selection, holders.getFirst());
                (selected ? add : remove).add(ip);
            }
            return Optional.of(ips.patched(add, remove));
        }
    }

    /** Whether the selection selects this (indexed) pod. */
    private boolean selects(Selection.SelectedPods selection, PodInfo pod) {
        return !pod.hostNetwork()
                && Selectors.matches(selection.podSelector(), pod.labels())
                && Selectors.matches(
                        selection.namespaceSelector(), namespaceLabels.getOrDefault(pod.namespace(), Map.of()))
                && namespaceLabels.containsKey(pod.namespace());
    }

    /** Whether the selector matches exactly one of two label sets (a pod relabelled into or out of it). */
    private static boolean movedAcross(LabelSelector selector, Map<String, String> before, Map<String, String> after) {
        return Selectors.matches(selector, before) != Selectors.matches(selector, after);
    }

    private static boolean eitherMatches(
            LabelSelector selector, Map<String, String> before, Map<String, String> after) {
        return (before != null && Selectors.matches(selector, before))
                || (after != null && Selectors.matches(selector, after));
    }

    /** The facts policies read from a pod (its addresses: {@link PodAddresses#of}). */
    public static PodInfo podInfo(Pod pod) {
        var meta = pod.getMetadata();
        var spec = pod.getSpec();
        PodAddresses.Primary primary = PodAddresses.primary(pod); // its annotation read once
        List<String> ips = primary.ips();
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
                            String protocol = p.getProtocol() == null
                                    ? "tcp"
                                    : p.getProtocol().toLowerCase(Locale.ROOT);
                            named.add(new ContainerPort(p.getName(), protocol, p.getContainerPort()));
                        }
                    }
                }
            }
        }
        return new PodInfo(
                meta.getNamespace(),
                meta.getName(),
                meta.getLabels() == null ? Map.of() : meta.getLabels(),
                ips,
                hostNetwork,
                named,
                nodeName,
                primary.portName());
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
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        return new NodeInfo(node.getMetadata().getName(), labels, ips);
    }

    /** Names of the namespaces {@code selector} selects (sorted); {@code null} selects none. */
    public List<String> namespaces(LabelSelector selector) {
        if (selector == null) {
            return List.of();
        }
        read(new Selection.Namespaces(selector));
        return namespaceSelections.computeIfAbsent(
                selector,
                s -> namespaceLabels.entrySet().stream()
                        .filter(e -> Selectors.matches(s, e.getValue()))
                        .map(Map.Entry::getKey)
                        .toList());
    }

    /** Whether the namespace exists. */
    public boolean hasNamespace(String namespace) {
        read(new Selection.NamespaceFacts(namespace));
        return namespaceLabels.containsKey(namespace);
    }

    /** Labels of a namespace (with {@code kubernetes.io/metadata.name}), empty if unknown. */
    public Map<String, String> namespaceLabels(String namespace) {
        read(new Selection.NamespaceFacts(namespace));
        return namespaceLabels.getOrDefault(namespace, Map.of());
    }

    /** Names of all namespaces, sorted. */
    public List<String> namespaceNames() {
        read(new Selection.Namespaces(new LabelSelector()));
        return List.copyOf(namespaceLabels.keySet());
    }

    /**
     * Non-host-network pods of {@code namespace} matching {@code podSelector} ({@code null} selects none). Memoized.
     */
    public List<PodInfo> pods(String namespace, LabelSelector podSelector) {
        if (podSelector == null) {
            return List.of();
        }
        read(new Selection.NamespacePods(namespace, podSelector));
        List<PodInfo> all = networkedPodsByNamespace.getOrDefault(namespace, List.of());
        if (Selectors.isEmpty(podSelector)) {
            return all;
        }
        return namespacePodSelections
                .computeIfAbsent(namespace, k -> new HashMap<>())
                .computeIfAbsent(
                        podSelector,
                        k -> all.stream()
                                .filter(p -> Selectors.matches(podSelector, p.labels()))
                                .toList());
    }

    /**
     * Non-host-network pods matching {@code podSelector} in namespaces matching {@code namespaceSelector}. Memoized.
     */
    public List<PodInfo> pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        if (namespaceSelector == null || podSelector == null) {
            return List.of();
        }
        Selection.SelectedPods key = selectedPods(namespaceSelector, podSelector);
        read(key);
        List<PodInfo> cached = podSelections.get(key);
        if (cached != null) {
            return cached;
        }
        List<PodInfo> result = new ArrayList<>();
        muted++;
        try {
            for (String ns : namespaces(namespaceSelector)) {
                result.addAll(pods(ns, podSelector));
            }
        } finally {
            muted--;
        }
        cached = List.copyOf(result);
        podSelections.put(key, cached);
        return cached;
    }

    private Selection.SelectedPods selectedPods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        if (selectedPods.size() > 100_000) {
            selectedPods.clear(); // selectors of replaced specs: let them go
            canonical.clear();
        }
        Map<LabelSelector, Selection.SelectedPods> byPod =
                selectedPods.computeIfAbsent(namespaceSelector, k -> new IdentityHashMap<>());
        Selection.SelectedPods selection = byPod.get(podSelector);
        if (selection == null) {
            selection = canonical.computeIfAbsent(new Selection.SelectedPods(namespaceSelector, podSelector), s -> s);
            byPod.put(podSelector, selection);
        }
        return selection;
    }

    /**
     * The sorted IPs of {@link #pods(LabelSelector, LabelSelector)}. Memoized: rules sharing a selector share the work.
     */
    public SortedSet<String> podIps(LabelSelector namespaceSelector, LabelSelector podSelector) {
        Selection.SelectedPods key = selectedPods(namespaceSelector, podSelector);
        read(key);
        SortedSet<String> cached = ipSelections.get(key);
        if (cached == null) {
            List<String> ips = new ArrayList<>();
            for (PodInfo pod : pods(namespaceSelector, podSelector)) {
                ips.addAll(pod.ips());
            }
            cached = FrozenSortedSet.of(ips); // sorts once
            ipSelections.put(key, cached);
        }
        return cached;
    }

    /** All non-host-network pods of the cluster. */
    public List<PodInfo> allPods() {
        read(new Selection.AllPods());
        List<PodInfo> result = new ArrayList<>();
        for (String ns : new TreeSet<>(podsByNamespace.keySet())) {
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
        read(new Selection.AllPods());
        return new LinkedHashMap<>(podsByNamespace);
    }

    /** Nodes matching {@code selector} ({@code null} selects none), sorted by name. */
    public List<NodeInfo> nodes(LabelSelector selector) {
        read(new Selection.Nodes(selector));
        return nodes.stream()
                .filter(n -> Selectors.matches(selector, n.labels()))
                .toList();
    }
}
