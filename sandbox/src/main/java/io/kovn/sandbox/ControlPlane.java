package io.kovn.sandbox;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.OvsdbConnections;
import io.kovn.controller.PrometheusOvsdbMetrics;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.clustermanager.ClusterManagerMain;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.controller.zone.TrustZoneMetrics;
import io.kovn.k8s.events.EventRecorder;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.PrometheusControllerMetrics;
import io.kovn.node.NodeAgentConfig;
import io.kovn.node.NodeAgentMetrics;
import io.kovn.node.NodeComponents;
import io.kovn.node.PrometheusNodeAgentMetrics;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.runtime.KubeControlPlane;
import io.kovn.sandbox.infra.EmulatedNode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kovn control plane as the sandbox runs it: the cluster manager (with leader election, as in a cluster, on its
 * ServiceAccount) and, per emulated node, the node's parts as {@code kovn node} runs them ({@link NodeComponents}: node
 * agent, zone controller on that node's NB and SB, and the network-policy controller on the same NB), on the node's own
 * certificate.
 */
final class ControlPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);

    private final KubernetesClient clusterManagerClient;
    private final PrometheusRegistry registry;
    private final TrustZoneMetrics trustZoneMetrics;
    // One per registry, shared by every controller of the sandbox (a metric name registers once).
    private final ControllerMetrics controllerMetrics;
    private final NodeAgentMetrics agentMetrics;
    private final Deque<AutoCloseable> running = new ArrayDeque<>();

    /** @param clusterManagerClient the cluster manager's (its ServiceAccount's, RBAC from {@code deploy/}) */
    ControlPlane(KubernetesClient clusterManagerClient, PrometheusRegistry registry) {
        this.clusterManagerClient = clusterManagerClient;
        this.registry = registry;
        this.trustZoneMetrics = new TrustZoneMetrics(registry);
        this.controllerMetrics = new PrometheusControllerMetrics(registry);
        this.agentMetrics = new PrometheusNodeAgentMetrics(registry);
        // as kovn node does; a client keeps the listener it was built with, so sandboxes one after the other in a
        // JVM (the tests) each count their own
        OvsdbConnections.setTransactionListener(new PrometheusOvsdbMetrics(registry));
    }

    private static EventSink events(KubernetesClient client, String component, String instance) {
        return EventSink.of(new EventRecorder(client, component, instance, Clock.systemUTC()));
    }

    /**
     * The cluster networks of a sandbox: the reference's IPv4 default, and {@code fd00:10:244::/48} with a /64 per node
     * beside it.
     */
    static List<ClusterNetwork> clusterNetworks(boolean dualStack) {
        return dualStack
                ? List.of(ClusterNetwork.DEFAULT_V4, ClusterNetwork.parse("fd00:10:244::/48/64"))
                : List.of(ClusterNetwork.DEFAULT_V4);
    }

    void startClusterManager(boolean dualStack) {
        ClusterManagerMain cm = new ClusterManagerMain(
                clusterManagerClient,
                ClusterManagerConfig.of(clusterNetworks(dualStack))
                        .withControllerMetrics(controllerMetrics)
                        .withServiceNetworks(List.of(
                                IpPrefix.parse(KubeControlPlane.SERVICE_CIDR),
                                IpPrefix.parse(KubeControlPlane.SERVICE_CIDR_V6)))
                        .withConnectingNetworks(true),
                events(clusterManagerClient, "kovn-cluster-manager", "sandbox"),
                "sandbox-cluster-manager",
                "kovn");
        running.push(cm);
        cm.start();
    }

    /**
     * The parts of an emulated node, as {@code kovn node} runs them on a node: its node agent, zone controller and
     * network-policy controller, all on {@code nodeClient} (the node's own identity), moved to a new client when the
     * node's certificate rotates.
     */
    NodeComponents startNode(EmulatedNode node, NodeAgentConfig agent, KubernetesClient nodeClient) {
        NodeComponents parts = new NodeComponents(
                new NodeComponents.Settings(
                        node.name(), "unix:" + node.nbSocket(), "unix:" + node.sbSocket(), Optional.of(agent)),
                registry,
                trustZoneMetrics,
                controllerMetrics,
                agentMetrics);
        parts.start(nodeClient);
        running.push(parts);
        return parts;
    }

    PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        while (!running.isEmpty()) {
            AutoCloseable c = running.pop();
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing {}: {}", c.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
