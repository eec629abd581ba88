package io.kovn.controller.policy;

import io.kovn.controller.events.EventSink;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.ids.ObjectId;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What a zone's policy controller needs besides the Kubernetes client.
 *
 * @param nodeName the zone's node (the zone is named after it; conditions are {@code Ready-In-Zone-<node>})
 * @param nbEndpoint the zone's NB, e.g. {@code unix:/run/ovn/ovnnb_db.sock}
 * @param events where Warning events about policies go
 * @param registry where the ANP/BANP metrics are registered (zones may share one)
 * @param ipFamilies the IP families address sets and matches are made for; empty: those of the zone node's subnets
 *     ({@code k8s.ovn.org/node-subnets}), so a dual-stack cluster is policed in both
 * @param ownerController the {@code k8s.ovn.org/owner-controller} of the rows
 * @param ovsdbTimeout OVSDB request and initial sync timeout
 * @param syncTimeout informer sync timeout
 * @param controllerMetrics queue and reconcile metrics of the controller (share one instance per registry)
 * @param adminNetworkPolicies whether AdminNetworkPolicies, BaselineAdminNetworkPolicies and ClusterNetworkPolicies
 *     (v1alpha2, the same feature: {@code --enable-admin-network-policy}) are translated; when off they are not
 *     watched, and the zone's rows of earlier ones are removed as stale (NetworkPolicies stay)
 */
public record PolicyControllerConfig(
        String nodeName,
        String nbEndpoint,
        EventSink events,
        PrometheusRegistry registry,
        Set<IpFamily> ipFamilies,
        String ownerController,
        Duration ovsdbTimeout,
        Duration syncTimeout,
        ControllerMetrics controllerMetrics,
        boolean adminNetworkPolicies) {
    public PolicyControllerConfig {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(nbEndpoint, "nbEndpoint");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(ownerController, "ownerController");
        Objects.requireNonNull(ovsdbTimeout, "ovsdbTimeout");
        Objects.requireNonNull(syncTimeout, "syncTimeout");
        Objects.requireNonNull(controllerMetrics, "controllerMetrics");
        ipFamilies = Set.copyOf(ipFamilies);
    }

    /**
     * The node's IP families, the default network controller, 10 s OVSDB and 30 s informer timeouts, no controller
     * metrics, AdminNetworkPolicies translated.
     */
    public static PolicyControllerConfig of(
            String nodeName, String nbEndpoint, EventSink events, PrometheusRegistry registry) {
        return new PolicyControllerConfig(
                nodeName,
                nbEndpoint,
                events,
                registry,
                Set.of(),
                ObjectId.DEFAULT_CONTROLLER,
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                ControllerMetrics.NONE,
                true);
    }

    /** Defaults with no events and a fresh registry (tests, benchmarks). */
    public static PolicyControllerConfig of(String nodeName, String nbEndpoint) {
        return of(nodeName, nbEndpoint, (o, w, r, m) -> {}, new PrometheusRegistry());
    }

    /** The same configuration with fixed IP families. */
    public PolicyControllerConfig withIpFamilies(Set<IpFamily> families) {
        return new PolicyControllerConfig(
                nodeName,
                nbEndpoint,
                events,
                registry,
                families,
                ownerController,
                ovsdbTimeout,
                syncTimeout,
                controllerMetrics,
                adminNetworkPolicies);
    }

    /** The same configuration with the controller reporting to {@code controllerMetrics}. */
    public PolicyControllerConfig withControllerMetrics(ControllerMetrics controllerMetrics) {
        return new PolicyControllerConfig(
                nodeName,
                nbEndpoint,
                events,
                registry,
                ipFamilies,
                ownerController,
                ovsdbTimeout,
                syncTimeout,
                controllerMetrics,
                adminNetworkPolicies);
    }

    /** The same configuration with AdminNetworkPolicies and BaselineAdminNetworkPolicies translated or not. */
    public PolicyControllerConfig withAdminNetworkPolicies(boolean enabled) {
        return new PolicyControllerConfig(
                nodeName,
                nbEndpoint,
                events,
                registry,
                ipFamilies,
                ownerController,
                ovsdbTimeout,
                syncTimeout,
                controllerMetrics,
                enabled);
    }
}
