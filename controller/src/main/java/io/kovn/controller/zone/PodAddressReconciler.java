package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.ipam.PodIpAllocator;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.topology.LocalNode;
import io.kovn.ovn.topology.PodPort;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pod IPAM of one zone, keyed by pod: gives every pod served on the node an address per family from
 * the node subnets and writes {@code k8s.ovn.org/pod-networks} with a merge patch; frees the
 * addresses of deleted and finished pods. The allocator is rebuilt from the pods' annotations
 * before the first reconcile ({@link #rebuild}), so addresses never move across restarts.
 *
 * <p>Reconciles of different pods run in parallel (the API request that writes an annotation is
 * most of a reconcile): each takes and frees addresses of its own pod only, in the thread-safe
 * allocator, and sends its request after deciding, holding no lock. Replacing the allocator (the
 * node's subnets changed) waits for the decisions under way, and keeps the addresses the old one
 * gave to pods whose annotation is not in the informer cache yet (the write is in flight).
 */
public final class PodAddressReconciler implements Reconciler<ObjectKey> {
    private static final Logger LOG = LoggerFactory.getLogger(PodAddressReconciler.class);

    private final String nodeName;
    private final KubernetesClient client;
    private final Indexer<Pod> pods;
    private final Indexer<Node> nodes;
    private final EventSink events;
    private final Consumer<String> changed;
    private volatile PodIpAllocator ipam;
    /** Read: a reconcile deciding in the current allocator; write: replacing it. Never held across I/O. */
    private final ReentrantReadWriteLock swap = new ReentrantReadWriteLock();

    /** Name of the pod informer index by {@code spec.nodeName} (see {@link #nodeIndexer()}). */
    public static final String NODE_INDEX = "kovn-node";

    /** The indexer to add to the pod informer before it starts. */
    public static Map<String, java.util.function.Function<Pod, List<String>>> nodeIndexer() {
        return Map.of(NODE_INDEX, p -> p.getSpec() == null || p.getSpec().getNodeName() == null
                ? List.of() : List.of(p.getSpec().getNodeName()));
    }

    /**
     * @param nodeName the zone's node
     * @param pods pod informer cache
     * @param nodes node informer cache
     * @param changed told (with the pod key) whenever a pod's address was allocated or freed
     */
    public PodAddressReconciler(String nodeName, KubernetesClient client, Indexer<Pod> pods, Indexer<Node> nodes,
                                EventSink events, Consumer<String> changed) {
        this.nodeName = nodeName;
        this.client = client;
        this.pods = pods;
        this.nodes = nodes;
        this.events = events;
        this.changed = changed;
    }

    /**
     * Re-reads every served pod's annotation into a fresh allocator (oldest pods first, so a
     * duplicated address stays with the pod that had it first). Returns false when the local node
     * has no subnets yet.
     */
    public synchronized boolean rebuild() {
        Optional<LocalNode> local = localNode();
        if (local.isEmpty()) {
            ipam = null;
            return false;
        }
        swap.writeLock().lock();
        try {
            PodIpAllocator fresh = new PodIpAllocator(local.get().subnets());
            List<Pod> served = onNode().stream().filter(p -> PodView.served(p, nodeName))
                    .sorted(Comparator.comparing((Pod p) -> String.valueOf(p.getMetadata().getCreationTimestamp()))
                            .thenComparing(PodView::key))
                    .toList();
            for (Pod p : served) {
                PodView.network(p).ifPresent(n -> fresh.reserve(PodView.key(p), n.ipAddresses()));
            }
            PodIpAllocator old = ipam;
            if (old != null) {
                // annotations being written: the cache does not show them yet, the old allocator does
                for (Pod p : served) {
                    String key = PodView.key(p);
                    List<IpPrefix> held = old.addressesOf(key);
                    if (PodView.network(p).isEmpty() && !held.isEmpty()
                            && held.stream().allMatch(a -> fresh.subnets().stream().anyMatch(s -> s.contains(a.address())))) {
                        fresh.reserve(key, held);
                    }
                }
            }
            ipam = fresh;
            return true;
        } finally {
            swap.writeLock().unlock();
        }
    }

    /** What a reconcile decided, to be done once the allocator is let go. */
    private sealed interface Step {
        record Done() implements Step {}

        /** Write the pod's annotation, after a warning when it stated addresses the pod cannot have. */
        record Write(PodNetwork network, String conflict) implements Step {}

        record Exhausted(IpPrefix subnet) implements Step {}
    }

    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        String podKey = key.namespace() + "/" + key.name();
        Pod pod = pods.getByKey(key.toString());
        Step step;
        while (true) {
            PodIpAllocator current = allocator();
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
            case Step.Write(PodNetwork network, String conflict) -> {
                if (conflict != null) {
                    events.warning(pod, "PodAddressConflict", "zone " + nodeName + " replaces the pod-networks of "
                            + podKey + ": " + conflict);
                }
                // The zone programs the port once the annotation is visible (the pod update re-queues it).
                writeAnnotation(pod, network);
                yield ReconcileResult.done();
            }
            case Step.Exhausted(IpPrefix subnet) -> {
                events.warning(pod, "PodAddressExhausted", "zone " + nodeName + " has no free address in "
                        + subnet + " for pod " + podKey);
                yield ReconcileResult.failed(new IllegalStateException("no free address in " + subnet));
            }
        };
    }

    /** Takes or frees the pod's addresses in {@code current}; no I/O. */
    private Step decide(PodIpAllocator current, String podKey, Pod pod) {
        if (pod == null || !PodView.served(pod, nodeName)) {
            if (!current.addressesOf(podKey).isEmpty()) {
                current.release(podKey);
                changed.accept(podKey);
            }
            return new Step.Done();
        }
        Optional<PodNetwork> annotated = PodView.network(pod);
        String conflict = null;
        if (annotated.isPresent()) {
            boolean known = !current.addressesOf(podKey).isEmpty();
            PodIpAllocator.Reservation r = current.reserve(podKey, annotated.get().ipAddresses());
            if (r instanceof PodIpAllocator.Reservation.Reserved ok && matches(annotated.get(), ok.addresses(), current)) {
                if (!known) {
                    changed.accept(podKey); // newly adopted: its port may now be programmed
                }
                return new Step.Done();
            }
            if (!(r instanceof PodIpAllocator.Reservation.Reserved)) {
                conflict = r.toString();
            }
        }
        return switch (current.allocate(podKey)) {
            case PodIpAllocator.Allocation.Allocated a -> new Step.Write(network(a.addresses(), current), conflict);
            case PodIpAllocator.Allocation.Exhausted e -> new Step.Exhausted(e.subnet());
        };
    }

    /** Whether the node's subnets are known, so that pods' addresses are. */
    public boolean ready() {
        return allocator() != null;
    }

    /**
     * The port of a served pod whose annotation states exactly the addresses it holds; empty for
     * other pods (gone, finished, host-network, not yet or wrongly annotated) and while not
     * {@link #ready()}.
     */
    public Optional<PodPort> port(ObjectKey key) {
        PodIpAllocator current = allocator();
        Pod p = pods.getByKey(key.toString());
        if (current == null || p == null || !PodView.served(p, nodeName)) {
            return Optional.empty();
        }
        List<IpPrefix> held = current.addressesOf(PodView.key(p));
        return PodView.network(p).filter(n -> !held.isEmpty() && n.ipAddresses().equals(held))
                .map(n -> new PodPort(p.getMetadata().getNamespace(), p.getMetadata().getName(), n.macAddress(),
                        n.ipAddresses()));
    }

    /** The keys of pods on this node, for re-queueing when the node changes. */
    public Collection<ObjectKey> podsOnNode() {
        return onNode().stream().map(ObjectKey::of).toList();
    }

    /** Pods scheduled on this node, through the informer's node index (no scan of all pods). */
    private List<Pod> onNode() {
        return pods.getIndexers().containsKey(NODE_INDEX) ? pods.byIndex(NODE_INDEX, nodeName)
                : pods.list().stream().filter(p -> p.getSpec() != null && nodeName.equals(p.getSpec().getNodeName())).toList();
    }

    private synchronized PodIpAllocator allocator() {
        Optional<LocalNode> local = localNode();
        if (local.isEmpty()) {
            return null;
        }
        if (ipam == null || !ipam.subnets().equals(local.get().subnets())) {
            LOG.info("zone {}: node subnets now {}; rebuilding pod address allocations", nodeName, local.get().subnets());
            rebuild();
        }
        return ipam;
    }

    private Optional<LocalNode> localNode() {
        Node node = nodes.getByKey(nodeName);
        if (node == null) {
            return Optional.empty();
        }
        try {
            return NodeView.local(node);
        } catch (AnnotationFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean matches(PodNetwork annotated, List<IpPrefix> held, PodIpAllocator ipam) {
        return annotated.ipAddresses().equals(held)
                && annotated.macAddress().equals(MacAddresses.fromIp(held.getFirst().address()))
                && annotated.gatewayIps().equals(ipam.gateways());
    }

    private static PodNetwork network(List<IpPrefix> addresses, PodIpAllocator ipam) {
        return PodNetwork.primary(addresses, MacAddresses.fromIp(addresses.getFirst().address()), ipam.gateways());
    }

    private void writeAnnotation(Pod pod, PodNetwork network) {
        String value = PodNetworks.ofDefault(network).format();
        Map<String, Object> patch = Map.of("metadata", Map.of("annotations", Map.of(OvnAnnotations.POD_NETWORKS, value)));
        // Through pods/status: a node identity may patch only the status subresource (deploy/03-rbac-node.yaml),
        // where the identity webhook checks the annotation (own node's pod, address in the node's subnet).
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), JsonPatches.json(patch));
    }
}
