package io.kovn.policy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.model.ChangedRows;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.FrozenSortedSet;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.select.ClusterChanges;
import io.kovn.policy.select.ClusterIndex;
import io.kovn.policy.select.NodeInfo;
import io.kovn.policy.select.PodAddresses;
import io.kovn.policy.select.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * {@link PolicyTranslator#translate(PolicySnapshot)} for a controller that translates again and again: the same output
 * for the same snapshot (a randomized test holds it to that), at a cost proportional to what changed since the previous
 * snapshot. It keeps the {@link ClusterIndex} and a {@link TranslationMemo} between calls; each call compares the
 * snapshot's namespaces, pods, nodes and local ports with the previous ones (object identity first: informer caches
 * hand out the same object until it changes), updates the index, forgets the memoized rules and policies whose
 * selections the changes touch, and translates — reusing everything else.
 *
 * <p>Not thread-safe: one reconcile at a time, as the work queue guarantees.
 */
public final class IncrementalTranslator {
    /** More changed objects than this and the index is rebuilt: cheaper than tracking each. */
    static final int REBUILD_ABOVE = 1_000;
    /** Translations without a policy change between sweeps of the memo. */
    static final int SWEEP_EVERY = 16;

    private ClusterIndex index;
    private TranslationMemo memo;
    private Set<IpFamily> families;
    private String controller;
    private Map<String, Pod> pods = new HashMap<>();
    /** The same pods by object identity, to their keys. */
    private Map<Pod, String> podKeys = new IdentityHashMap<>();

    private Map<String, PodInfo> podInfos = new HashMap<>();
    private Set<String> localPorts = Set.of();
    private Map<String, Namespace> namespaces = new HashMap<>();
    private Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    /** Each namespace's acl-logging annotation (absent: none). */
    private Map<String, String> namespaceLogging = new HashMap<>();
    /** The last {@link #changes} found a namespace whose acl-logging annotation changed. */
    private boolean loggingChanged;

    private Map<String, Node> nodes = new HashMap<>();
    private Map<String, NodeInfo> nodeInfos = new HashMap<>();
    private long rebuilds;
    private long quickTranslations;
    /** The pods of the last snapshot, in its order. */
    private List<Pod> previousPods;

    private List<Namespace> previousNamespaces;
    private List<Node> previousNodes;
    private SortedSet<String> statefulPorts;
    private PolicyRows stateful;
    /** A pod on a local port came, went or changed since the stateful rows were made. */
    private boolean statefulDirty = true;

    private Set<String> statefulLocalPorts;

    /** Translations since the memo was last swept. */
    private int unswept;
    /** The policy objects of the last snapshot, in its order. */
    private List<Object> previousPolicies = List.of();

    /** The last translation, the one before it, and the rows that differ between them (null: unknown). */
    private DesiredPolicyState last;

    private DesiredPolicyState beforeLast;
    private ChangedRows lastChanges;

    /** Translates {@code snapshot}; equal to {@code PolicyTranslator.translate(snapshot)}. */
    public DesiredPolicyState translate(PolicySnapshot snapshot) {
        boolean rebuilt = false;
        boolean podsOnly = false;
        Set<Object> forgotten = Set.of();
        boolean policies = policiesChanged(snapshot);
        if (index == null
                || !snapshot.ipFamilies().equals(families)
                || !snapshot.ownerController().equals(controller)) {
            rebuild(snapshot);
            rebuilt = true;
        } else {
            ClusterChanges changes = changes(snapshot);
            if (changes.size() > REBUILD_ABOVE) {
                rebuild(snapshot);
                rebuilt = true; // a new accumulator: the rows it dropped are not among its touched keys
            } else {
                forgotten = changes.size() > 0 ? memo.forget(index.apply(changes)) : Set.of();
                podsOnly = !policies
                        && changes.namespaces().isEmpty()
                        && changes.nodes().isEmpty()
                        && !loggingChanged;
            }
        }
        Optional<DesiredPolicyState> quick =
                podsOnly ? PodChangeTranslation.translate(snapshot, index, memo, forgotten, last) : Optional.empty();
        DesiredPolicyState state;
        if (quick.isPresent()) {
            // every value but the forgotten ones was asked for as before: nothing to sweep
            state = quick.get();
            quickTranslations++;
        } else {
            state = PolicyTranslator.translate(snapshot, index, memo);
            // Only a changed policy object leaves memoized values unasked for (its old rules); sweeping
            // walks every value, so pod-only changes sweep now and then (bounding what a leak could hold).
            if (rebuilt || policies || ++unswept >= SWEEP_EVERY) {
                memo.sweep();
                unswept = 0;
            }
        }
        beforeLast = last;
        last = state;
        lastChanges = rebuilt ? null : PolicyTranslator.touched(memo);
        return state;
    }

    /**
     * The keys of the rows that may differ between {@code earlier} and the last translation, when {@code earlier} is
     * the translation right before it (and not across a rebuild); then a caller compares these rows instead of walking
     * both translations.
     */
    public Optional<ChangedRows> changedSince(DesiredPolicyState earlier) {
        return earlier != null && earlier == beforeLast && lastChanges != null
                ? Optional.of(lastChanges)
                : Optional.empty();
    }

    /** Whether an ANP, BANP or NetworkPolicy object came, went or changed (informers: same object until it changes). */
    private boolean policiesChanged(PolicySnapshot snapshot) {
        List<Object> now = new ArrayList<>(snapshot.adminNetworkPolicies().size()
                + snapshot.baselineAdminNetworkPolicies().size()
                + snapshot.clusterNetworkPolicies().size()
                + snapshot.networkPolicies().size());
        now.addAll(snapshot.adminNetworkPolicies());
        now.addAll(snapshot.baselineAdminNetworkPolicies());
        now.addAll(snapshot.clusterNetworkPolicies());
        now.addAll(snapshot.networkPolicies());
        boolean changed = now.size() != previousPolicies.size();
        for (int i = 0; !changed && i < now.size(); i++) {
            changed = now.get(i) != previousPolicies.get(i);
        }
        previousPolicies = now;
        return changed;
    }

    private void rebuild(PolicySnapshot snapshot) {
        rebuilds++;
        statefulPorts = null;
        statefulDirty = true;
        previousPods = snapshot.pods();
        previousNamespaces = snapshot.namespaces();
        previousNodes = snapshot.nodes();
        index = new ClusterIndex(snapshot.namespaces(), snapshot.pods(), snapshot.nodes());
        memo = TranslationMemo.over(index);
        families = snapshot.ipFamilies();
        controller = snapshot.ownerController();
        pods = new HashMap<>();
        podKeys = new IdentityHashMap<>();
        podInfos = new HashMap<>();
        for (Pod pod : snapshot.pods()) {
            String key = key(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
            pods.put(key, pod);
            podKeys.put(pod, key);
            PodInfo info = index.indexedPod(
                    pod.getMetadata().getNamespace(), pod.getMetadata().getName());
            if (info != null) { // the index's own facts: not made twice for 10,000 pods
                podInfos.put(key, info);
            }
        }
        localPorts = snapshot.localPorts();
        namespaces = new HashMap<>();
        namespaceLabels = new HashMap<>();
        namespaceLogging = new HashMap<>();
        for (Namespace ns : snapshot.namespaces()) {
            namespaces.put(ns.getMetadata().getName(), ns);
            namespaceLabels.put(ns.getMetadata().getName(), ClusterIndex.labelsOf(ns));
            namespaceLogging.put(ns.getMetadata().getName(), logging(ns));
        }
        nodes = new HashMap<>();
        nodeInfos = new HashMap<>();
        for (Node node : snapshot.nodes()) {
            nodes.put(node.getMetadata().getName(), node);
            nodeInfos.put(node.getMetadata().getName(), ClusterIndex.nodeInfo(node));
        }
    }

    /** What differs from the previous snapshot; the previous-state maps become this snapshot's. */
    private ClusterChanges changes(PolicySnapshot snapshot) {
        ClusterChanges changes = new ClusterChanges();
        loggingChanged = false;
        // an informer store lists the same list object until something in it changes
        if (snapshot.namespaces() != previousNamespaces) {
            loggingChanged = loggingChanged(snapshot.namespaces()); // before byName replaces the objects
            namespaces = byName(
                    snapshot.namespaces(), namespaces, namespaceLabels, ClusterIndex::labelsOf, changes::namespace);
            previousNamespaces = snapshot.namespaces();
        }

        podChanges(snapshot, changes);
        if (!snapshot.localPorts().equals(localPorts)) {
            // A pod whose switch port came or went joins or leaves its port groups: selections that
            // hold it are recomputed (its facts did not change, so before = after).
            Set<String> flipped = new HashSet<>(snapshot.localPorts());
            flipped.removeAll(localPorts);
            for (String port : localPorts) {
                if (!snapshot.localPorts().contains(port)) {
                    flipped.add(port);
                }
            }
            for (String port : flipped) {
                int cut = port.indexOf('_');
                PodInfo info = cut < 0 ? null : podInfos.get(key(port.substring(0, cut), port.substring(cut + 1)));
                if (info != null) {
                    changes.pod(info.namespace(), info.name(), info, info);
                }
            }
            localPorts = snapshot.localPorts();
        }

        if (snapshot.nodes() != previousNodes) {
            nodes = byName(snapshot.nodes(), nodes, nodeInfos, ClusterIndex::nodeInfo, changes::node);
            previousNodes = snapshot.nodes();
        }
        return changes;
    }

    /**
     * Whether a namespace's acl-logging annotation changed (an annotation only: no selection reads it, so it is no
     * {@link ClusterChanges} entry). Its NetworkPolicies' ACLs carry the levels, and the pod-change path keeps the
     * namespaces' levels of the last full translation: such a change needs the full one.
     */
    private boolean loggingChanged(List<Namespace> now) {
        boolean changed = false;
        Set<String> present = new HashSet<>();
        for (Namespace ns : now) {
            String name = ns.getMetadata().getName();
            present.add(name);
            if (namespaces.get(name) != ns) {
                String levels = logging(ns);
                changed |= !Objects.equals(namespaceLogging.put(name, levels), levels);
            }
        }
        namespaceLogging.keySet().retainAll(present);
        return changed;
    }

    private static String logging(Namespace ns) {
        Map<String, String> annotations = ns.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(AclLogging.ANNOTATION);
    }

    /** Receives one object's change: its facts before and after ({@code null} = absent). */
    @FunctionalInterface
    private interface Change<I> {
        void accept(String name, I before, I after);
    }

    /**
     * Namespaces or nodes by name, object identity first: reports each whose facts changed, updates {@code facts}, and
     * returns the objects by name for the next call.
     */
    private static <T extends HasMetadata, I> Map<String, T> byName(
            List<T> now, Map<String, T> previous, Map<String, I> facts, Function<T, I> factsOf, Change<I> change) {
        Map<String, T> byName = new HashMap<>();
        for (T object : now) {
            String name = object.getMetadata().getName();
            byName.put(name, object);
            if (previous.get(name) != object) {
                I after = factsOf.apply(object);
                I before = facts.put(name, after);
                if (!after.equals(before)) {
                    change.accept(name, before, after);
                }
            }
        }
        for (String name : previous.keySet()) {
            if (!byName.containsKey(name)) {
                change.accept(name, facts.remove(name), null);
            }
        }
        return byName;
    }

    /**
     * Pods by object identity first: an informer hands out the same object until the pod changes, and lists its pods in
     * a stable order, so a converged cluster of 10,000 pods costs 10,000 pointer comparisons with the previous
     * snapshot, not string keys.
     */
    private void podChanges(PolicySnapshot snapshot, ClusterChanges changes) {
        List<Pod> now = snapshot.pods();
        if (now == previousPods) {
            return; // the same listing: no pod changed
        }
        List<Pod> replaced = new ArrayList<>();
        if (previousPods != null && previousPods.size() == now.size()) {
            // an informer lists its pods in a stable order: compare pointers by position, and look up
            // only the pods that are not where they were (no pod object is touched otherwise); as
            // arrays, since list calls over 10,000 pods are not free without C2
            Object[] was = previousPods.toArray();
            Object[] is = now.toArray();
            for (int i = 0; i < is.length; i++) {
                if (is[i] != was[i] && !podKeys.containsKey((Pod) is[i])) {
                    replaced.add((Pod) is[i]);
                }
            }
        } else {
            for (Pod pod : now) {
                if (!podKeys.containsKey(pod)) {
                    replaced.add(pod);
                }
            }
        }
        previousPods = now;
        if (replaced.isEmpty() && podKeys.size() == now.size()) {
            return; // nothing replaced, nothing gone
        }
        for (Pod pod : replaced) {
            String ns = pod.getMetadata().getNamespace();
            String name = pod.getMetadata().getName();
            String key = key(ns, name);
            Pod old = pods.put(key, pod);
            // the stateful rows read a local pod's presence and hostNetwork only (not its labels)
            statefulDirty |= (old == null || hostNetwork(old) != hostNetwork(pod))
                    && localPorts.contains(PodAddresses.portName(pod));
            if (old != null) {
                podKeys.remove(old);
            }
            podKeys.put(pod, key);
            PodInfo info = ClusterIndex.finished(pod) ? null : ClusterIndex.podInfo(pod);
            PodInfo before = info == null ? podInfos.remove(key) : podInfos.put(key, info);
            if (!Objects.equals(before, info)) {
                changes.pod(ns, name, before, info);
            }
        }
        if (podKeys.size() > snapshot.pods().size()) {
            // some pods are gone: the keys of the snapshot's pods tell which
            Set<String> live = new HashSet<>(snapshot.pods().size() * 2);
            for (Pod pod : snapshot.pods()) {
                live.add(podKeys.get(pod));
            }
            for (var it = pods.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (!live.contains(e.getKey())) {
                    statefulDirty = true;
                    it.remove();
                    podKeys.remove(e.getValue());
                    PodInfo before = podInfos.remove(e.getKey());
                    if (before != null) {
                        changes.pod(before.namespace(), before.name(), before, null);
                    }
                }
            }
        }
    }

    private static boolean hostNetwork(Pod pod) {
        return pod.getSpec() != null && Boolean.TRUE.equals(pod.getSpec().getHostNetwork());
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /**
     * {@link StatefulPods#rows(PolicySnapshot, DesiredPolicyState)} of the snapshot last translated, found through the
     * local ports instead of every pod, and the same object while they are equal.
     */
    public PolicyRows statefulRows(PolicySnapshot snapshot, DesiredPolicyState state) {
        if (state.acls().isEmpty()) {
            return StatefulPods.rows(snapshot, state);
        }
        if (!statefulDirty && stateful != null && snapshot.localPorts().equals(statefulLocalPorts)) {
            return stateful; // the same local ports, and none of their pods changed
        }
        statefulDirty = false;
        statefulLocalPorts = snapshot.localPorts();
        TreeSet<String> ports = new TreeSet<>();
        for (String port : snapshot.localPorts()) {
            int cut = port.indexOf('_');
            Pod pod = cut < 0 ? null : pods.get(key(port.substring(0, cut), port.substring(cut + 1)));
            if (pod != null && !hostNetwork(pod)) {
                ports.add(port);
            }
        }
        if (!ports.equals(statefulPorts)) {
            statefulPorts = ports;
            stateful = StatefulPods.rows(snapshot.ownerController(), FrozenSortedSet.of(ports));
        }
        return stateful;
    }

    /** Translations that made again only what pod changes invalidated ({@link PodChangeTranslation}). */
    public long quickTranslations() {
        return quickTranslations;
    }

    /** Translations that started from a new index (the first, and after large changes). */
    public long rebuilds() {
        return rebuilds;
    }

    /** The memo (hit and miss counts for diagnostics). */
    public TranslationMemo memo() {
        return memo;
    }
}
