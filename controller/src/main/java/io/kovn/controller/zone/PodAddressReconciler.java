package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.ipam.NetworkAllocators;
import io.kovn.controller.ipam.PodIpAllocator;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.PrimaryNetworkAnnotation;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.topology.PodPort;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pod IPAM of one zone, keyed by pod: gives every pod served on the node an address per family from the node subnets
 * and writes {@code k8s.ovn.org/pod-networks} with a merge patch; frees the addresses of deleted and finished pods. A
 * pod whose namespace has a primary user-defined network ({@link PodNetworkChoice}) also gets addresses from the node's
 * subnets of that network, and the annotation then holds both entries ({@link PrimaryNetworkAnnotation}): this is its
 * one writer. The allocator is rebuilt from the pods' annotations before the first reconcile ({@link #rebuild}), so
 * addresses never move across restarts.
 *
 * <p>Reconciles of different pods run in parallel (the API request that writes an annotation is most of a reconcile):
 * each takes and frees addresses of its own pod only, in the thread-safe allocator, and sends its request after
 * deciding, holding no lock. Replacing the allocator (the node's subnets changed) waits for the decisions under way,
 * and keeps the addresses the old one gave to pods whose annotation is not in the informer cache yet (the write is in
 * flight).
 */
public final class PodAddressReconciler implements Reconciler<ObjectKey> {
    private static final Logger LOG = LoggerFactory.getLogger(PodAddressReconciler.class);

    private final String nodeName;
    private final KubernetesClient client;
    private final Indexer<Pod> pods;
    private final Indexer<Node> nodes;
    private final EventSink events;
    private final Consumer<String> changed;
    private final Function<String, PodNetworkChoice> choices;
    private final List<IpPrefix> clusterSubnets;
    private volatile NetworkAllocators ipam;
    private volatile SubnetsMemo subnetsMemo;

    /** The node's subnets as last parsed, with the annotation text they were parsed from. */
    private record SubnetsMemo(String text, Optional<Map<String, List<IpPrefix>>> subnets) {}
    /** Read: a reconcile deciding in the current allocators; write: replacing them. Never held across I/O. */
    private final ReentrantReadWriteLock swap = new ReentrantReadWriteLock();

    /** Name of the pod informer index by {@code spec.nodeName} (see {@link #nodeIndexer()}). */
    public static final String NODE_INDEX = "kovn-node";

    /** The indexer to add to the pod informer before it starts. */
    public static Map<String, Function<Pod, List<String>>> nodeIndexer() {
        return Map.of(
                NODE_INDEX,
                p -> p.getSpec() == null || p.getSpec().getNodeName() == null
                        ? List.of()
                        : List.of(p.getSpec().getNodeName()));
    }

    /**
     * A zone whose pods are all on the default network (no user-defined networks).
     *
     * @param nodeName the zone's node
     * @param pods pod informer cache
     * @param nodes node informer cache
     * @param changed told (with the pod key) whenever a pod's address was allocated or freed
     */
    public PodAddressReconciler(
            String nodeName,
            KubernetesClient client,
            Indexer<Pod> pods,
            Indexer<Node> nodes,
            EventSink events,
            Consumer<String> changed) {
        this(nodeName, client, pods, nodes, events, changed, ns -> PodNetworkChoice.DEFAULT, List.of());
    }

    /**
     * @param choices the network a pod of a namespace is given
     * @param clusterSubnets the default network's CIDRs (routes of a user-defined network pod's default entry)
     */
    PodAddressReconciler(
            String nodeName,
            KubernetesClient client,
            Indexer<Pod> pods,
            Indexer<Node> nodes,
            EventSink events,
            Consumer<String> changed,
            Function<String, PodNetworkChoice> choices,
            List<IpPrefix> clusterSubnets) {
        this.nodeName = nodeName;
        this.client = client;
        this.pods = pods;
        this.nodes = nodes;
        this.events = events;
        this.changed = changed;
        this.choices = choices;
        this.clusterSubnets = List.copyOf(clusterSubnets);
    }

    /**
     * Re-reads every served pod's annotation into fresh allocators (oldest pods first, so a duplicated address stays
     * with the pod that had it first). Returns false when the local node has no subnets yet.
     */
    public synchronized boolean rebuild() {
        Optional<Map<String, List<IpPrefix>>> local = localSubnets();
        if (local.isEmpty()) {
            ipam = null;
            return false;
        }
        swap.writeLock().lock();
        try {
            NetworkAllocators fresh = new NetworkAllocators(local.get());
            List<Pod> served = onNode().stream()
                    .filter(p -> PodView.served(p, nodeName))
                    .sorted(Comparator.comparing(
                                    (Pod p) -> String.valueOf(p.getMetadata().getCreationTimestamp()))
                            .thenComparing(PodView::key))
                    .toList();
            for (Pod p : served) {
                annotated(p)
                        .forEach((network, addresses) ->
                                fresh.of(network).ifPresent(a -> a.reserve(PodView.key(p), addresses)));
            }
            NetworkAllocators old = ipam;
            if (old != null) {
                // annotations being written: the cache does not show them yet, the old allocators do
                for (Pod p : served) {
                    String key = PodView.key(p);
                    Map<String, List<IpPrefix>> shown = annotated(p);
                    for (String network : fresh.subnets().keySet()) {
                        List<IpPrefix> held =
                                old.of(network).map(a -> a.addressesOf(key)).orElse(List.of());
                        PodIpAllocator into = fresh.of(network).orElseThrow();
                        if (!shown.containsKey(network)
                                && !held.isEmpty()
                                && held.stream()
                                        .allMatch(
                                                a -> into.subnets().stream().anyMatch(s -> s.contains(a.address())))) {
                            into.reserve(key, held);
                        }
                    }
                }
            }
            ipam = fresh;
            return true;
        } finally {
            swap.writeLock().unlock();
        }
    }

    /** The addresses a pod's annotation states, by network name, for the networks its namespace gives it. */
    private Map<String, List<IpPrefix>> annotated(Pod p) {
        Optional<PodNetworks> networks = PodView.networks(p);
        if (networks.isEmpty()) return Map.of();
        Map<String, List<IpPrefix>> out = new HashMap<>();
        networks.get().defaultNetwork().ifPresent(n -> out.put(OvnAnnotations.DEFAULT_NETWORK, n.ipAddresses()));
        if (choices.apply(p.getMetadata().getNamespace()) instanceof PodNetworkChoice.Primary primary) {
            PodNetwork entry = networks.get().byNetwork().get(primary.attachment());
            if (entry != null) out.put(primary.network().name(), entry.ipAddresses());
        }
        return out;
    }

    /** What a reconcile decided, to be done once the allocators are let go. */
    private sealed interface Step {
        record Done() implements Step {}

        /** Write the pod's annotation, after a warning when it stated addresses the pod cannot have. */
        record Write(PodNetworks networks, String conflict) implements Step {}

        record Exhausted(IpPrefix subnet) implements Step {}

        /** The pod's network cannot be given yet (reported once per reason). */
        record Pending(String reason) implements Step {}
    }

    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        String podKey = key.namespace() + "/" + key.name();
        Pod pod = pods.getByKey(key.toString());
        Step step;
        while (true) {
            NetworkAllocators current = allocators();
            if (current == null) {
                return ReconcileResult.done(); // the node's subnets are not known yet; a node update re-queues pods
            }
            swap.readLock().lock();
            try {
                if (current == ipam) { // not replaced since: it cannot be until this decision is made
                    step = decide(current, podKey, pod);
                    break;
                }
            } finally {
                swap.readLock().unlock();
            }
        }
        return switch (step) {
            case Step.Done d -> ReconcileResult.done();
            case Step.Write(PodNetworks networks, String conflict) -> {
                if (conflict != null) {
                    events.warning(
                            pod,
                            "PodAddressConflict",
                            "zone " + nodeName + " replaces the pod-networks of " + podKey + ": " + conflict);
                }
                // The zone programs the port once the annotation is visible (the pod update re-queues it).
                writeAnnotation(pod, networks);
                yield ReconcileResult.done();
            }
            case Step.Exhausted(IpPrefix subnet) -> {
                events.warning(
                        pod,
                        "PodAddressExhausted",
                        "zone " + nodeName + " has no free address in " + subnet + " for pod " + podKey);
                yield ReconcileResult.failed(new IllegalStateException("no free address in " + subnet));
            }
            case Step.Pending(String reason) -> {
                LOG.debug("zone {}: pod {} waits: {}", nodeName, podKey, reason);
                events.warning(
                        pod,
                        "PodNetworkPending",
                        "zone " + nodeName + " gives pod " + podKey + " no address: " + reason);
                yield ReconcileResult.done(); // a network, namespace or node change re-queues the pod
            }
        };
    }

    /** Takes or frees the pod's addresses in {@code current}; no I/O. */
    private Step decide(NetworkAllocators current, String podKey, Pod pod) {
        if (pod == null || !PodView.served(pod, nodeName)) {
            if (current.releaseExcept(podKey, Set.of())) {
                changed.accept(podKey);
            }
            return new Step.Done();
        }
        PodNetworkChoice choice = choices.apply(pod.getMetadata().getNamespace());
        if (choice instanceof PodNetworkChoice.Pending(String reason)) {
            return PodView.networks(pod).isPresent()
                    ? new Step.Done()
                    : new Step.Pending(reason); // an annotated pod keeps its port
        }
        Optional<PodNetworks> annotated = PodView.networks(pod);
        boolean known = current.holds(podKey);
        List<String> conflicts = new ArrayList<>();
        PodIpAllocator defaults = current.of(OvnAnnotations.DEFAULT_NETWORK).orElseThrow();
        Taken taken = take(defaults, podKey, annotated.flatMap(PodNetworks::defaultNetwork), conflicts);
        if (taken instanceof Taken.Exhausted(IpPrefix subnet)) return new Step.Exhausted(subnet);
        List<IpPrefix> defaultAddresses = ((Taken.Addresses) taken).addresses();
        PodNetworks desired;
        Set<String> keep = new HashSet<>(Set.of(OvnAnnotations.DEFAULT_NETWORK));
        if (choice instanceof PodNetworkChoice.Primary(var network, String attachment)) {
            Optional<PodIpAllocator> own = current.of(network.name());
            if (own.isEmpty()) {
                return new Step.Pending("node " + nodeName + " has no subnet of network " + network.name() + " yet");
            }
            keep.add(network.name());
            taken = take(own.get(), podKey, annotated.map(a -> a.byNetwork().get(attachment)), conflicts);
            if (taken instanceof Taken.Exhausted(IpPrefix subnet)) return new Step.Exhausted(subnet);
            desired = PrimaryNetworkAnnotation.of(
                    defaultAddresses,
                    clusterSubnets,
                    attachment,
                    network,
                    onNetwork(network, ((Taken.Addresses) taken).addresses()),
                    List.of(),
                    nodeIps());
        } else {
            desired = PodNetworks.ofDefault(PodNetwork.primary(
                    defaultAddresses,
                    MacAddresses.fromIp(defaultAddresses.getFirst().address()),
                    defaults.gateways()));
        }
        boolean freed = current.releaseExcept(podKey, keep);
        if (annotated.isPresent() && annotated.get().equals(desired)) {
            if (!known || freed) {
                changed.accept(podKey); // newly adopted: its port may now be programmed
            }
            return new Step.Done();
        }
        return new Step.Write(desired, conflicts.isEmpty() ? null : String.join("; ", conflicts));
    }

    /** The addresses a pod is to have in one network: those annotated when it may hold them, else new ones. */
    private sealed interface Taken {
        record Addresses(List<IpPrefix> addresses) implements Taken {}

        record Exhausted(IpPrefix subnet) implements Taken {}
    }

    private static Taken take(
            PodIpAllocator allocator, String podKey, Optional<PodNetwork> annotated, List<String> conflicts) {
        if (annotated.isPresent()) {
            PodIpAllocator.Reservation r =
                    allocator.reserve(podKey, annotated.get().ipAddresses());
            if (r instanceof PodIpAllocator.Reservation.Reserved ok) {
                return new Taken.Addresses(ok.addresses());
            }
            conflicts.add(r.toString());
        }
        return switch (allocator.allocate(podKey)) {
            case PodIpAllocator.Allocation.Allocated a -> new Taken.Addresses(a.addresses());
            case PodIpAllocator.Allocation.Exhausted e -> new Taken.Exhausted(e.subnet());
        };
    }

    /**
     * A pod's addresses as its network states them: a Layer3 node subnet's, or, for a Layer2 network, with the whole
     * network's prefix length (the node's range only partitions it).
     */
    private static List<IpPrefix> onNetwork(Network network, List<IpPrefix> addresses) {
        if (network.topology() == Network.Topology.LAYER3) return addresses;
        return addresses.stream()
                .map(a -> new IpPrefix(
                        a.address(),
                        network.subnet(a.family()).orElseThrow().cidr().length()))
                .toList();
    }

    /** Whether the node's subnets are known, so that pods' addresses are. */
    public boolean ready() {
        return allocators() != null;
    }

    /**
     * The ports of a served pod whose annotation states exactly the addresses it holds; empty for other pods (gone,
     * finished, host-network, not yet or wrongly annotated) and while not {@link #ready()}.
     */
    public Optional<PodPorts> ports(ObjectKey key) {
        NetworkAllocators current = allocators();
        Pod p = pods.getByKey(key.toString());
        if (current == null || p == null || !PodView.served(p, nodeName)) {
            return Optional.empty();
        }
        String podKey = PodView.key(p);
        Optional<PodNetworks> annotated = PodView.networks(p);
        Optional<PodNetwork> defaultEntry = annotated.flatMap(PodNetworks::defaultNetwork);
        List<IpPrefix> held = current.of(OvnAnnotations.DEFAULT_NETWORK)
                .map(a -> a.addressesOf(podKey))
                .orElse(List.of());
        if (defaultEntry.isEmpty()
                || held.isEmpty()
                || !defaultEntry.get().ipAddresses().equals(held)) {
            return Optional.empty();
        }
        PodPort defaultPort = new PodPort(
                p.getMetadata().getNamespace(),
                p.getMetadata().getName(),
                defaultEntry.get().macAddress(),
                held);
        Optional<PodPorts.NetworkPort> networkPort = Optional.empty();
        if (choices.apply(p.getMetadata().getNamespace())
                instanceof PodNetworkChoice.Primary(var network, String attachment)) {
            PodNetwork entry = annotated.get().byNetwork().get(attachment);
            List<IpPrefix> own = onNetwork(
                    network,
                    current.of(network.name()).map(a -> a.addressesOf(podKey)).orElse(List.of()));
            if (entry == null || own.isEmpty() || !entry.ipAddresses().equals(own)) {
                return Optional.empty(); // the annotation is about to be rewritten
            }
            networkPort = Optional.of(new PodPorts.NetworkPort(
                    network,
                    attachment,
                    new PodPort(p.getMetadata().getNamespace(), p.getMetadata().getName(), entry.macAddress(), own)));
        }
        return Optional.of(new PodPorts(defaultPort, networkPort));
    }

    /** The keys of pods on this node, for re-queueing when the node changes. */
    public Collection<ObjectKey> podsOnNode() {
        return onNode().stream().map(ObjectKey::of).toList();
    }

    /** Pods scheduled on this node, through the informer's node index (no scan of all pods). */
    private List<Pod> onNode() {
        return pods.getIndexers().containsKey(NODE_INDEX)
                ? pods.byIndex(NODE_INDEX, nodeName)
                : pods.list().stream()
                        .filter(p -> p.getSpec() != null
                                && nodeName.equals(p.getSpec().getNodeName()))
                        .toList();
    }

    private synchronized NetworkAllocators allocators() {
        Optional<Map<String, List<IpPrefix>>> local = localSubnets();
        if (local.isEmpty()) {
            return null;
        }
        if (ipam == null || !ipam.subnets().equals(local.get())) {
            LOG.info("zone {}: node subnets now {}; rebuilding pod address allocations", nodeName, local.get());
            rebuild();
        }
        return ipam;
    }

    /** The node's own addresses (its pods of user-defined networks route them through eth0). */
    private List<InetAddress> nodeIps() {
        Node node = nodes.getByKey(nodeName);
        try {
            return node == null
                    ? List.of()
                    : NodeView.local(node).map(l -> l.nodeIps()).orElse(List.of());
        } catch (AnnotationFormatException e) {
            return List.of();
        }
    }

    /** The node's subnets by network, empty until it has default-network subnets. */
    private Optional<Map<String, List<IpPrefix>>> localSubnets() {
        Node node = nodes.getByKey(nodeName);
        if (node == null) {
            return Optional.empty();
        }
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(OvnAnnotations.NODE_SUBNETS);
        if (value == null) return Optional.empty();
        // read on every reconcile: parsed again only when the annotation's text changed
        SubnetsMemo m = subnetsMemo;
        if (m != null && m.text().equals(value)) return m.subnets();
        Optional<Map<String, List<IpPrefix>>> parsed;
        try {
            if (NodeView.local(node).isEmpty())
                return Optional.empty(); // not allocated yet (id, transit address): not memoized
            Map<String, List<IpPrefix>> out =
                    new HashMap<>(NodeSubnets.parse(value).byNetwork());
            out.values().removeIf(List::isEmpty);
            parsed = out.containsKey(OvnAnnotations.DEFAULT_NETWORK) ? Optional.of(Map.copyOf(out)) : Optional.empty();
        } catch (AnnotationFormatException e) {
            parsed = Optional.empty();
        }
        subnetsMemo = new SubnetsMemo(value, parsed);
        return parsed;
    }

    private void writeAnnotation(Pod pod, PodNetworks networks) {
        String value = networks.format();
        Map<String, Object> patch =
                Map.of("metadata", Map.of("annotations", Map.of(OvnAnnotations.POD_NETWORKS, value)));
        // Through pods/status: a node identity may patch only the status subresource (deploy/03-rbac-node.yaml),
        // where the identity webhook checks the annotation (own node's pod, address in the node's subnet).
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), JsonPatches.json(patch));
    }
}
