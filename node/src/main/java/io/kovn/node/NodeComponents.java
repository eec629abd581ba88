package io.kovn.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.policy.PolicyController;
import io.kovn.controller.policy.PolicyControllerConfig;
import io.kovn.controller.service.ServiceController;
import io.kovn.controller.zone.PodAddressReconciler;
import io.kovn.controller.zone.TrustZoneMetrics;
import io.kovn.controller.zone.ZoneController;
import io.kovn.controller.zone.ZoneControllerConfig;
import io.kovn.controller.zone.ZoneDatabases;
import io.kovn.controller.zone.ZoneModel;
import io.kovn.k8s.events.EventRecorder;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.PrometheusControllerMetrics;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.node.cni.PodRef;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-node parts of kovn in one process ({@code kovn node}, and each emulated node of the sandbox), all bound to
 * one Kubernetes client, the node's own identity: node agent (optional), zone controller and network-policy controller
 * on the zone's NB/SB. When the node's certificate rotates, the node agent moves to the new client in place
 * ({@link NodeAgent#useClient}: its CNI server keeps answering, so no pod add fails across a rotation) and the
 * controllers are restarted on it: the old client is closed after a grace period, and informers must not outlive it.
 * Restarting is safe because they are level-driven (a restart re-lists and converges, writing nothing when nothing
 * changed).
 */
public final class NodeComponents implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeComponents.class);
    /**
     * How long CNI ADD waits for the zone's policies to know a new pod's addresses: a reconcile takes milliseconds, a
     * zone's first one about a second at scale (docs/network-policy.md).
     */
    static final Duration POLICY_WAIT = Duration.ofSeconds(10);

    /**
     * What to run.
     *
     * @param nodeName the node (and zone) name
     * @param nbEndpoint the zone's NB
     * @param sbEndpoint the zone's SB
     * @param agent the node agent's configuration, empty when the node agent is disabled
     * @param adminNetworkPolicies whether the policy controller translates AdminNetworkPolicies,
     *     BaselineAdminNetworkPolicies and ClusterNetworkPolicies ({@code --enable-admin-network-policy})
     * @param networkSegmentation whether the zone serves user-defined networks ({@code --enable-network-segmentation})
     */
    public record Settings(
            String nodeName,
            String nbEndpoint,
            String sbEndpoint,
            Optional<NodeAgentConfig> agent,
            boolean adminNetworkPolicies,
            boolean networkSegmentation) {
        /** Every feature on. */
        public Settings(String nodeName, String nbEndpoint, String sbEndpoint, Optional<NodeAgentConfig> agent) {
            this(nodeName, nbEndpoint, sbEndpoint, agent, true, true);
        }

        /** The policy controller's configuration for this node. */
        PolicyControllerConfig policies(EventSink events, PrometheusRegistry registry, ControllerMetrics metrics) {
            return PolicyControllerConfig.of(nodeName, nbEndpoint, events, registry)
                    .withControllerMetrics(metrics)
                    .withAdminNetworkPolicies(adminNetworkPolicies);
        }

        /** The zone controller's configuration for this node. */
        ZoneControllerConfig zone(EventSink events, TrustZoneMetrics trustZones, ControllerMetrics metrics) {
            return ZoneControllerConfig.of(nodeName, nbEndpoint, sbEndpoint, events, trustZones)
                    .withControllerMetrics(metrics)
                    // the gateway's SNAT and routes cover the pod networks the agent routes too
                    .withClusterSubnets(
                            agent.map(NodeAgentConfig::clusterSubnets).orElse(ZoneModel.DEFAULT_CLUSTER_SUBNETS))
                    .withNetworkSegmentation(networkSegmentation);
        }
    }

    private final Settings settings;
    private final PrometheusRegistry registry;
    // One per registry: their metric names register once and survive restarts.
    private final TrustZoneMetrics trustZoneMetrics;
    private final ControllerMetrics controllerMetrics;
    private final NodeAgentMetrics agentMetrics;
    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private NodeAgent agent;
    /** Read by CNI ADD without the lock, as {@link #policies}. */
    private volatile ZoneController zone;
    /** Read by CNI ADD without the lock: a restart must not hold up pod starts. */
    private volatile PolicyController policies;

    private volatile boolean up;
    /** The informers of the running parts, for readiness. */
    private volatile SharedInformers informers;

    /** The parts of one node, registering their metrics in {@code registry}. */
    public NodeComponents(Settings settings, PrometheusRegistry registry) {
        this(
                settings,
                registry,
                new TrustZoneMetrics(registry),
                new PrometheusControllerMetrics(registry),
                new PrometheusNodeAgentMetrics(registry));
    }

    /**
     * The parts of one node among several sharing one registry (the sandbox's): the metrics objects are registered once
     * and shared, their {@code zone} label tells the nodes apart.
     */
    public NodeComponents(
            Settings settings,
            PrometheusRegistry registry,
            TrustZoneMetrics trustZoneMetrics,
            ControllerMetrics controllerMetrics) {
        this(settings, registry, trustZoneMetrics, controllerMetrics, NodeAgentMetrics.NONE);
    }

    /** As the constructor above, with the node agent reporting its CNI calls and pods to {@code agentMetrics}. */
    public NodeComponents(
            Settings settings,
            PrometheusRegistry registry,
            TrustZoneMetrics trustZoneMetrics,
            ControllerMetrics controllerMetrics,
            NodeAgentMetrics agentMetrics) {
        this.settings = settings;
        this.registry = registry;
        this.trustZoneMetrics = trustZoneMetrics;
        this.controllerMetrics = controllerMetrics;
        this.agentMetrics = agentMetrics;
    }

    /** Starts every part with {@code client}; on failure stops what started and rethrows. */
    public synchronized void start(KubernetesClient client) {
        try {
            if (settings.agent().isPresent() && agent == null) {
                agent = NodeAgent.start(
                        client, settings.agent().get(), this::awaitPolicies, this::networkMtu, agentMetrics);
            }
            // Pods and nodes are listed, watched and cached once for both controllers; closed last.
            SharedInformers informers = new SharedInformers(client);
            running.push(informers);
            this.informers = informers;
            // the zone's pod index exists before either controller starts the pod informer
            informers.index(Pod.class, PodAddressReconciler.nodeIndexer());
            PolicyControllerConfig policyConfig =
                    settings.policies(events(client, "kovn-policy-controller"), registry, controllerMetrics);
            ZoneControllerConfig zoneConfig =
                    settings.zone(events(client, "kovn-zone-controller"), trustZoneMetrics, controllerMetrics);
            // One NB and one SB connection and cache for the process, shared by the zone, service and policy
            // controllers; every kind lists while their monitors sync.
            CompletableFuture<ZoneDatabases> connect = CompletableFuture.supplyAsync(
                    () -> ZoneDatabases.connect(
                            settings.nbEndpoint(),
                            settings.sbEndpoint(),
                            zoneConfig.ovsdbTimeout(),
                            PolicyController.NB_MONITORS),
                    Thread::startVirtualThread);
            informers.start(PolicyController.kinds(policyConfig));
            ServiceController.prepare(informers);
            ZoneDatabases dbs = awaitStart(connect);
            running.push(dbs); // closed after both controllers
            // Both controllers start at once (one after the other, the policy kinds' handlers waited for the zone).
            CompletableFuture<PolicyController> policyStart = CompletableFuture.supplyAsync(
                    () -> PolicyController.start(policyConfig, informers, dbs.nb()), Thread::startVirtualThread);
            try {
                zone = ZoneController.start(zoneConfig, informers, dbs);
                running.push(zone);
            } catch (RuntimeException e) {
                policyStart
                        .thenAccept(PolicyController::close)
                        .exceptionally(x -> null)
                        .join();
                throw e;
            }
            policies = awaitStart(policyStart);
            running.push(policies);
            up = true;
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** What a start made once it has; its failure rethrown as it was. */
    private static <T> T awaitStart(CompletableFuture<T> start) {
        try {
            return start.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * Moves the parts to another client (after a certificate rotation): the node agent in place, the controllers by a
     * restart.
     */
    public synchronized void restart(KubernetesClient client) {
        LOG.info("moving the node's parts to new credentials");
        if (agent != null) {
            agent.useClient(client);
        }
        stop();
        start(client);
    }

    /** Whether every part is running. */
    public boolean healthy() {
        return up;
    }

    /**
     * Why the node is not ready, empty when it is: a part not started yet, or an informer not watching (listing again
     * after an error: its controllers read a cache that may be behind).
     */
    public List<String> notReady() {
        if (!up) return List.of("the node's controllers are not running");
        SharedInformers current = informers;
        return current == null
                ? List.of()
                : current.notWatching().stream()
                        .map(kind -> "the informer of " + kind + " is not watching")
                        .toList();
    }

    public synchronized ZoneController zone() {
        return zone;
    }

    public synchronized PolicyController policies() {
        return policies;
    }

    /**
     * CNI ADD's {@link PodAddressBarrier}: the zone's policy controller has written NB for the pod's addresses. The
     * agent outlives the controllers (they restart on rotation), so it asks whichever runs now, and waits out a restart
     * within {@link #POLICY_WAIT}.
     */
    private boolean awaitPolicies(PodRef pod, List<String> ips) throws InterruptedException {
        long deadline = System.nanoTime() + POLICY_WAIT.toNanos();
        for (long left = POLICY_WAIT.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            PolicyController current = policies;
            if (current != null
                    && current.awaitPodAddresses(pod.namespace(), pod.name(), pod.uid(), ips, Duration.ofNanos(left))) {
                return true;
            }
            Thread.sleep(20); // none running, or it closed under us: the next one will be there shortly
        }
        return false;
    }

    /**
     * CNI's {@link NetworkMtus}: the MTU the zone's accepted network declares. As {@link #awaitPolicies}, it asks
     * whichever zone controller runs now and waits out a restart within {@link #POLICY_WAIT}; with none by then, the
     * interface gets the CNI configuration's MTU.
     */
    private Optional<Integer> networkMtu(String namespace, String attachment) throws InterruptedException {
        long deadline = System.nanoTime() + POLICY_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            ZoneController current = zone;
            if (current != null) return current.networkMtu(namespace, attachment);
            Thread.sleep(20);
        }
        LOG.warn("no zone controller for the MTU of {} within {}: the CNI configuration's", attachment, POLICY_WAIT);
        return Optional.empty();
    }

    private EventSink events(KubernetesClient client, String component) {
        return EventSink.of(new EventRecorder(client, component, settings.nodeName(), Clock.systemUTC()));
    }

    private void stop() {
        up = false;
        while (!running.isEmpty()) {
            AutoCloseable part = running.pop();
            try {
                part.close();
            } catch (Exception e) {
                LOG.warn("closing {}: {}", part.getClass().getSimpleName(), e.toString());
            }
        }
        zone = null;
        policies = null;
    }

    @Override
    public synchronized void close() {
        stop();
        if (agent != null) {
            agent.close();
            agent = null;
        }
    }
}
