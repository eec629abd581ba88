package io.kovn.sandbox;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.clustermanager.ClusterManagerMain;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.policy.PolicyController;
import io.kovn.controller.policy.PolicyControllerConfig;
import io.kovn.controller.zone.TrustZoneMetrics;
import io.kovn.controller.zone.ZoneController;
import io.kovn.controller.zone.ZoneControllerConfig;
import io.kovn.k8s.events.EventRecorder;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.PrometheusControllerMetrics;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.sandbox.infra.EmulatedNode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kovn control plane as the sandbox runs it: the cluster manager (with leader election, as in
 * a cluster) and, per emulated node, the zone controller bound to that node's NB and SB and the
 * network-policy controller bound to the same NB.
 */
final class ControlPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);

    private final KubernetesClient clusterManagerClient;
    private final KubernetesClient client;
    private final PrometheusRegistry registry;
    private final TrustZoneMetrics trustZoneMetrics;
    // One per registry, shared by every controller of the sandbox (a metric name registers once).
    private final ControllerMetrics controllerMetrics;
    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private final List<ZoneController> zones = new ArrayList<>();
    // One informer per kind for every zone of the sandbox, as in one kovn process per node.
    private SharedInformers informers;

    /**
     * @param clusterManagerClient the cluster manager's (its ServiceAccount's, RBAC from {@code deploy/})
     * @param client the zone and policy controllers'
     */
    ControlPlane(KubernetesClient clusterManagerClient, KubernetesClient client, PrometheusRegistry registry) {
        this.clusterManagerClient = clusterManagerClient;
        this.client = client;
        this.registry = registry;
        this.trustZoneMetrics = new TrustZoneMetrics(registry);
        this.controllerMetrics = new PrometheusControllerMetrics(registry);
    }

    private static EventSink events(KubernetesClient client, String component, String instance) {
        return EventSink.of(new EventRecorder(client, component, instance, Clock.systemUTC()));
    }

    void startClusterManager() {
        ClusterManagerMain cm = new ClusterManagerMain(clusterManagerClient, ClusterManagerConfig.defaults().withControllerMetrics(controllerMetrics),
                events(clusterManagerClient, "kovn-cluster-manager", "sandbox"), "sandbox-cluster-manager", "kovn");
        running.push(cm);
        cm.start();
    }

    /** The zone controller of a node and, beside it on the same NB, its network-policy controller. */
    ZoneController startZone(EmulatedNode node) {
        if (informers == null) {
            informers = new SharedInformers(client);
            running.push(informers); // popped, so closed, after every controller on it
        }
        ZoneController zone = ZoneController.start(ZoneControllerConfig.of(node.name(), "unix:" + node.nbSocket(),
                "unix:" + node.sbSocket(), events(client, "kovn-zone-controller", node.name()), trustZoneMetrics)
                .withControllerMetrics(controllerMetrics), informers);
        running.push(zone);
        zones.add(zone);
        PolicyController policies = PolicyController.start(PolicyControllerConfig.of(node.name(), "unix:" + node.nbSocket(),
                events(client, "kovn-policy-controller", node.name()), registry).withControllerMetrics(controllerMetrics), informers);
        running.push(policies);
        return zone;
    }

    List<ZoneController> zones() {
        return List.copyOf(zones);
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
