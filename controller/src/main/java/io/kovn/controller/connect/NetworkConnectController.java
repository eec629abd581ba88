package io.kovn.controller.connect;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.connect.ConnectPlan.Connect;
import io.kovn.controller.connect.ConnectPlan.Verdict;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.network.AcceptedNetworks;
import io.kovn.controller.network.NetworkController;
import io.kovn.controller.network.NetworkPlan;
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
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster manager's ClusterNetworkConnects: CNCs, UserDefinedNetworks, ClusterUserDefinedNetworks and namespaces
 * (informers) to {@link ConnectPlan}'s verdicts, written back as each CNC's
 * {@code k8s.ovn.org/connect-router-tunnel-key} and {@code k8s.ovn.org/network-connect-subnet} annotations and its
 * {@value ConnectPlan#ACCEPTED} condition (with an Event when it changes).
 *
 * <p>One key for all CNCs: tunnel keys and overlapping connect subnets depend on the other CNCs. Networks are those the
 * cluster manager accepted, read back from their objects like zones read them ({@link AcceptedNetworks}). Only what
 * differs is written; a refused CNC's annotations stay.
 */
public final class NetworkConnectController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkConnectController.class);
    private static final String KEY = "cluster-network-connects";
    private static final Duration RETRY = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final SharedIndexInformer<GenericKubernetesResource> cncs;
    private final SharedIndexInformer<GenericKubernetesResource> udns;
    private final SharedIndexInformer<GenericKubernetesResource> cudns;
    private final SharedIndexInformer<Namespace> namespaces;
    private final Controller<String> controller;
    private final ConditionWriter conditions;
    private final EventSink events;
    private final List<NetworkPlan.Reserved> reserved;
    private final Set<IpFamily> families;
    private final boolean enabled;

    /**
     * @param reserved the cluster's ranges connect subnets must not overlap
     * @param families the cluster's IP families
     * @param enabled whether connecting networks is enabled; when not, every CNC is told so and gets nothing
     * @param networks the network controller's UDN, CUDN and namespace informers (started and closed by it)
     */
    public NetworkConnectController(
            KubernetesClient client,
            List<NetworkPlan.Reserved> reserved,
            Set<IpFamily> families,
            boolean enabled,
            EventSink events,
            ControllerMetrics metrics,
            NetworkController.NetworkInformers networks) {
        this.client = client;
        this.reserved = List.copyOf(reserved);
        this.families = Set.copyOf(families);
        this.enabled = enabled;
        this.events = events;
        this.conditions = new ConditionWriter(client, Clock.systemUTC());
        this.cncs = Informers.retrying(client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                .runnableInformer(0));
        this.udns = networks.udns();
        this.cudns = networks.cudns();
        this.namespaces = networks.namespaces();
        Reconciler<String> reconciler = key -> reconcile();
        this.controller = Controller.builder("cluster-network-connects", reconciler)
                .watch(cncs, (GenericKubernetesResource o) -> List.of(KEY))
                .watch(udns, (GenericKubernetesResource o) -> List.of(KEY))
                .watch(cudns, (GenericKubernetesResource o) -> List.of(KEY))
                .watch(
                        namespaces,
                        (Namespace n) -> List.of(KEY),
                        (Namespace n) -> n.getMetadata().getLabels())
                .metrics(metrics)
                .build();
    }

    /** Starts the CNC informer and the controller (the network controller starts the others); returns at once. */
    public void start() {
        cncs.start();
        controller.start();
    }

    /** Whether the informers have synced and nothing is queued or running (for tests). */
    public boolean idle() {
        return controller.hasSynced() && controller.isIdle();
    }

    private ReconcileResult reconcile() {
        if (!cncs.hasSynced() || !udns.hasSynced() || !cudns.hasSynced() || !namespaces.hasSynced()) {
            return ReconcileResult.requeue(RETRY);
        }
        Map<String, Map<String, String>> cudnLabels = new HashMap<>();
        cudns.getIndexer()
                .list()
                .forEach(o -> cudnLabels.put(
                        o.getMetadata().getName(), orEmpty(o.getMetadata().getLabels())));
        Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
        namespaces
                .getIndexer()
                .list()
                .forEach(n -> namespaceLabels.put(
                        n.getMetadata().getName(), orEmpty(n.getMetadata().getLabels())));
        ConnectPlan.Cluster cluster = new ConnectPlan.Cluster(
                AcceptedNetworks.entries(
                        udns.getIndexer().list(), cudns.getIndexer().list()),
                cudnLabels,
                namespaceLabels,
                reserved,
                families,
                enabled);
        Map<String, GenericKubernetesResource> objects = new HashMap<>();
        List<Connect> connects = cncs.getIndexer().list().stream()
                .map(o -> {
                    objects.put(o.getMetadata().getName(), o);
                    return Connect.of(o);
                })
                .toList();
        boolean failed = false;
        for (Map.Entry<String, Verdict> e : ConnectPlan.plan(connects, cluster).entrySet()) {
            GenericKubernetesResource object = objects.get(e.getKey());
            if (object.getMetadata().getDeletionTimestamp() != null) continue;
            try {
                write(object, e.getValue());
            } catch (KubernetesClientException ex) {
                if (ex.getCode() == 404) continue; // deleted meanwhile: its informer event queues another plan
                LOG.warn("ClusterNetworkConnect {}: writing it: {}", e.getKey(), ex.getMessage());
                failed = true;
            }
        }
        return failed ? ReconcileResult.requeue(RETRY) : ReconcileResult.done();
    }

    private void write(GenericKubernetesResource object, Verdict verdict) {
        String name = object.getMetadata().getName();
        Map<String, String> current = orEmpty(object.getMetadata().getAnnotations());
        Map<String, String> patch = new HashMap<>();
        verdict.tunnelKey().ifPresent(k -> patch.put(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY, Long.toString(k)));
        verdict.subnets().ifPresent(s -> patch.put(OvnAnnotations.NETWORK_CONNECT_SUBNET, s.format()));
        patch.entrySet().removeIf(a -> a.getValue().equals(current.get(a.getKey())));
        if (!patch.isEmpty()) {
            LOG.info("ClusterNetworkConnect {}: {}", name, patch);
            client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                    .withName(name)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            JsonPatches.json(Map.of("metadata", Map.of("annotations", patch))));
        }
        DesiredCondition desired = verdict.accepted()
                ? DesiredCondition.isTrue(ConnectPlan.ACCEPTED, verdict.reason(), verdict.message())
                : DesiredCondition.isFalse(ConnectPlan.ACCEPTED, verdict.reason(), verdict.message());
        ConditionWrite written = conditions.set(KovnResources.CLUSTER_NETWORK_CONNECT, null, name, desired);
        if (written instanceof ConditionWrite.Changed) {
            LOG.info(
                    "ClusterNetworkConnect {}: {}={} {}: {}",
                    name,
                    ConnectPlan.ACCEPTED,
                    desired.status(),
                    desired.reason(),
                    desired.message());
            if (verdict.accepted()) events.normal(object, desired.reason(), desired.message());
            else events.warning(object, desired.reason(), desired.message());
        }
    }

    private static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    @Override
    public void close() {
        controller.close();
        cncs.close();
    }
}
