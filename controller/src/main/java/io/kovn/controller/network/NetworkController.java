package io.kovn.controller.network;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.network.NetworkPlan.Declaration;
import io.kovn.controller.network.NetworkPlan.Kind;
import io.kovn.controller.network.NetworkPlan.Verdict;
import io.kovn.controller.zone.JsonPatches;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.events.ConditionWrite;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.events.DesiredCondition;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.Informers;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.annotations.IpFamily;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster manager's user-defined networks: UserDefinedNetworks, ClusterUserDefinedNetworks and namespaces
 * (informers) to {@link NetworkPlan}'s verdicts, written back as each object's {@value #NETWORK_ID_ANNOTATION}
 * annotation and {@value #NETWORK_CREATED} condition (with an Event when the condition changes), and handed to the node
 * allocation ({@code onNetworks}).
 *
 * <p>One key for all networks: a verdict depends on every other network (one primary network per namespace, ids), so
 * they are planned together; only what differs is written. kovn renders no NetworkAttachmentDefinitions, so the id
 * lives on the network's own object. Each object carries {@link #FINALIZER}: a deleted network stays until no pod of
 * its namespaces is left.
 */
public final class NetworkController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkController.class);
    /** Where a network's id is kept (on the reference's NAD; on the UDN/CUDN itself here). */
    public static final String NETWORK_ID_ANNOTATION = "k8s.ovn.org/network-id";
    /** The reference's condition type. */
    public static final String NETWORK_CREATED = "NetworkCreated";
    /** The reason of {@code NetworkCreated=True}. */
    public static final String CREATED_REASON = "NetworkCreated";
    /**
     * The reference's finalizer: a network's object is not gone until no pod of its namespaces is left (every pod of a
     * namespace is on its primary network).
     */
    public static final String FINALIZER = "k8s.ovn.org/user-defined-network-protection";
    /** The reason of the Warning Event while a deleted network waits for its pods. */
    public static final String IN_USE_REASON = "NetworkInUse";

    private static final String KEY = "networks";
    private static final Duration RETRY = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final SharedIndexInformer<GenericKubernetesResource> udns;
    private final SharedIndexInformer<GenericKubernetesResource> cudns;
    private final SharedIndexInformer<Namespace> namespaces;
    private final Controller<String> controller;
    private final ConditionWriter conditions;
    private final EventSink events;
    private final List<NetworkPlan.Reserved> reserved;
    private final Set<IpFamily> families;
    private final Consumer<List<Network>> onNetworks;
    private volatile List<Network> accepted = List.of();
    /** The last in-use message per network being deleted: one Event per change, not one per retry. */
    private final Map<String, String> inUse = new HashMap<>();

    /**
     * @param reserved the cluster's ranges networks must not overlap
     * @param families the cluster's IP families
     * @param onNetworks called with the accepted networks whenever they change (from the reconcile thread)
     */
    public NetworkController(
            KubernetesClient client,
            List<NetworkPlan.Reserved> reserved,
            Set<IpFamily> families,
            EventSink events,
            ControllerMetrics metrics,
            Consumer<List<Network>> onNetworks) {
        this.client = client;
        this.reserved = List.copyOf(reserved);
        this.families = Set.copyOf(families);
        this.events = events;
        this.onNetworks = onNetworks;
        this.conditions = new ConditionWriter(client, Clock.systemUTC());
        this.udns = Informers.retrying(client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inAnyNamespace()
                .runnableInformer(0));
        this.cudns = Informers.retrying(client.genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                .runnableInformer(0));
        this.namespaces = client.namespaces().runnableInformer(0);
        Reconciler<String> reconciler = key -> reconcile();
        this.controller = Controller.builder("networks", reconciler)
                .watch(udns, (GenericKubernetesResource o) -> List.of(KEY))
                .watch(cudns, (GenericKubernetesResource o) -> List.of(KEY))
                .watch(
                        namespaces,
                        (Namespace n) -> List.of(KEY),
                        (Namespace n) -> n.getMetadata().getLabels())
                .metrics(metrics)
                .build();
    }

    /**
     * The UDN, CUDN and namespace informers, for the process's other controllers of networks (they watch the same
     * objects: one list and watch of each); started and closed by this controller.
     */
    public record NetworkInformers(
            SharedIndexInformer<GenericKubernetesResource> udns,
            SharedIndexInformer<GenericKubernetesResource> cudns,
            SharedIndexInformer<Namespace> namespaces) {}

    /** This controller's informers ({@link NetworkInformers}). */
    public NetworkInformers informers() {
        return new NetworkInformers(udns, cudns, namespaces);
    }

    /** Starts the informers and the controller; returns at once. */
    public void start() {
        udns.start();
        cudns.start();
        namespaces.start();
        controller.start();
    }

    /** The networks accepted at the last reconcile. */
    public List<Network> accepted() {
        return accepted;
    }

    /** Whether the informers have synced and nothing is queued or running (for tests). */
    public boolean idle() {
        return controller.hasSynced() && controller.isIdle();
    }

    private ReconcileResult reconcile() {
        if (!udns.hasSynced() || !cudns.hasSynced() || !namespaces.hasSynced()) return ReconcileResult.requeue(RETRY);
        Map<Declaration, GenericKubernetesResource> objects = new HashMap<>();
        udns.getIndexer().list().forEach(o -> objects.put(Declaration.of(Kind.UDN, o), o));
        cudns.getIndexer().list().forEach(o -> objects.put(Declaration.of(Kind.CUDN, o), o));
        Map<String, Map<String, String>> labels = new HashMap<>();
        namespaces
                .getIndexer()
                .list()
                .forEach(n -> labels.put(
                        n.getMetadata().getName(),
                        n.getMetadata().getLabels() == null
                                ? Map.of()
                                : n.getMetadata().getLabels()));
        Map<Declaration, Verdict> verdicts =
                NetworkPlan.plan(new ArrayList<>(objects.keySet()), labels, reserved, families);
        List<Network> networks = new ArrayList<>();
        boolean failed = false;
        boolean waiting = false;
        for (Map.Entry<Declaration, Verdict> e : verdicts.entrySet()) {
            Declaration d = e.getKey();
            GenericKubernetesResource object = objects.get(d);
            try {
                if (object.getMetadata().getDeletionTimestamp() != null) {
                    List<String> users =
                            e.getValue() instanceof Verdict.Accepted a ? podsIn(a.namespaces()) : List.of();
                    if (!users.isEmpty()) {
                        // deletion waits: the network stays as it is until its pods are gone
                        networks.add(((Verdict.Accepted) e.getValue()).network());
                        waiting = true;
                        String message = "deletion waits: network " + d.networkName() + " is in use by pods " + users;
                        if (!message.equals(inUse.put(d.networkName(), message))) {
                            LOG.info("{}: {}", d.label(), message);
                            events.warning(object, IN_USE_REASON, message);
                        }
                    } else {
                        inUse.remove(d.networkName());
                        setFinalizer(d, object, false);
                    }
                    continue;
                }
                if (e.getValue() instanceof Verdict.Accepted a) networks.add(a.network());
                setFinalizer(d, object, true);
                write(d, object, e.getValue());
            } catch (KubernetesClientException ex) {
                if (ex.getCode() == 404) continue; // deleted meanwhile: its informer event queues another plan
                LOG.warn("{}: writing it: {}", d.label(), ex.getMessage());
                failed = true;
            }
        }
        networks.sort(Comparator.comparingInt(Network::id));
        if (!networks.equals(accepted)) {
            accepted = List.copyOf(networks);
            LOG.info(
                    "networks: {}",
                    networks.stream().map(n -> n.name() + "=" + n.id()).toList());
            onNetworks.accept(accepted);
        }
        return failed || waiting ? ReconcileResult.requeue(RETRY) : ReconcileResult.done();
    }

    /**
     * The pods that use the network of these namespaces: every pod of them not on the host network and not finished.
     */
    private List<String> podsIn(List<String> namespaces) {
        List<String> users = new ArrayList<>();
        for (String ns : namespaces) {
            for (Pod p : client.pods().inNamespace(ns).list().getItems()) {
                String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
                if (p.getSpec() != null && Boolean.TRUE.equals(p.getSpec().getHostNetwork())) continue;
                if ("Succeeded".equals(phase) || "Failed".equals(phase)) continue;
                users.add(ns + "/" + p.getMetadata().getName());
            }
        }
        return users.stream().sorted().toList();
    }

    /**
     * Adds or removes {@link #FINALIZER} (a merge patch of the whole list at the cached resourceVersion: a conflict
     * retries).
     */
    private void setFinalizer(Declaration d, GenericKubernetesResource object, boolean present) {
        List<String> finalizers = object.getMetadata().getFinalizers() == null
                ? List.of()
                : object.getMetadata().getFinalizers();
        if (finalizers.contains(FINALIZER) == present) return;
        List<String> next = new ArrayList<>(finalizers);
        if (present) next.add(FINALIZER);
        else next.remove(FINALIZER);
        resource(d)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        JsonPatches.json(Map.of(
                                "metadata",
                                Map.of(
                                        "finalizers",
                                        next,
                                        "resourceVersion",
                                        object.getMetadata().getResourceVersion()))));
    }

    private Resource<GenericKubernetesResource> resource(Declaration d) {
        return d.kind() == Kind.UDN
                ? client.genericKubernetesResources(context(d))
                        .inNamespace(d.namespace())
                        .withName(d.name())
                : client.genericKubernetesResources(context(d)).withName(d.name());
    }

    private static ResourceDefinitionContext context(Declaration d) {
        return d.kind() == Kind.UDN ? KovnResources.USER_DEFINED_NETWORK : KovnResources.CLUSTER_USER_DEFINED_NETWORK;
    }

    private void write(Declaration d, GenericKubernetesResource object, Verdict verdict) {
        DesiredCondition desired;
        if (verdict instanceof Verdict.Accepted a) {
            String id = Integer.toString(a.network().id());
            if (!id.equals(annotations(object).get(NETWORK_ID_ANNOTATION))) {
                resource(d)
                        .patch(
                                PatchContext.of(PatchType.JSON_MERGE),
                                JsonPatches.json(
                                        Map.of("metadata", Map.of("annotations", Map.of(NETWORK_ID_ANNOTATION, id)))));
            }
            desired = DesiredCondition.isTrue(NETWORK_CREATED, CREATED_REASON, createdMessage(a));
        } else {
            Verdict.Refused r = (Verdict.Refused) verdict;
            desired = DesiredCondition.isFalse(NETWORK_CREATED, r.reason(), r.message());
        }
        ConditionWrite written = conditions.set(context(d), d.namespace(), d.name(), desired);
        if (written instanceof ConditionWrite.Changed) {
            LOG.info(
                    "{}: {}={} {}: {}",
                    d.label(),
                    NETWORK_CREATED,
                    desired.status(),
                    desired.reason(),
                    desired.message());
            if (desired.status() == DesiredCondition.Status.True)
                events.normal(object, desired.reason(), desired.message());
            else events.warning(object, desired.reason(), desired.message());
        }
    }

    /** What {@code NetworkCreated=True} says: the network, its id, the namespaces it serves. */
    static String createdMessage(Verdict.Accepted a) {
        Network n = a.network();
        String text = "network " + n.name() + " (id " + n.id() + ", "
                + n.topology().apiName() + " " + n.cidrs() + ") is the primary network of namespaces " + a.namespaces();
        return a.skipped().isEmpty()
                ? text
                : text + "; not of " + a.skipped() + " (each has an older primary network or lacks the label "
                        + NetworkPlan.PRIMARY_NAMESPACE_LABEL + ")";
    }

    private static Map<String, String> annotations(GenericKubernetesResource o) {
        return o.getMetadata().getAnnotations() == null
                ? Map.of()
                : o.getMetadata().getAnnotations();
    }

    @Override
    public void close() {
        controller.close();
        udns.close();
        cudns.close();
        namespaces.close();
    }
}
