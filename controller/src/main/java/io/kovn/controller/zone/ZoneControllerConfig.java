package io.kovn.controller.zone;

import io.kovn.controller.events.EventSink;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.ovn.annotations.IpPrefix;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a zone controller needs besides the Kubernetes client.
 *
 * @param nodeName the zone's node (the zone is named after it)
 * @param nbEndpoint the zone's NB, e.g. {@code unix:/run/ovn/ovnnb_db.sock}
 * @param sbEndpoint the zone's SB
 * @param events where Events go
 * @param metrics trust-zone metrics (share one instance per registry)
 * @param ovsdbTimeout OVSDB request and initial sync timeout
 * @param syncTimeout informer sync timeout
 * @param podWorkers parallel reconciles of pods' switch ports (each may be a batch of up to {@code portBatch} pods)
 * @param addressWorkers parallel reconciles of pods' addresses: each writes one pod's annotation with one API request
 *     (Kubernetes has no bulk patch), so the requests of a burst overlap
 * @param portBatch the most pods whose switch ports one reconcile writes in one NB transaction
 * @param serviceBatch the most services whose load balancers one reconcile plans and writes in one NB transaction
 *     (start-up and bursts)
 * @param controllerMetrics queue and reconcile metrics of the zone's controllers (share one instance per registry)
 * @param clusterSubnets the cluster's pod networks: the node gateway SNATs them and routes them back
 * @param networkSegmentation whether user-defined networks (UDN, CUDN) are served; when off their objects are not
 *     watched, the zone acts as if none were accepted (rows of earlier ones are removed as stale, pods of a namespace
 *     labelled for a primary network wait)
 */
public record ZoneControllerConfig(
        String nodeName,
        String nbEndpoint,
        String sbEndpoint,
        EventSink events,
        TrustZoneMetrics metrics,
        Duration ovsdbTimeout,
        Duration syncTimeout,
        int podWorkers,
        int addressWorkers,
        int portBatch,
        int serviceBatch,
        ControllerMetrics controllerMetrics,
        List<IpPrefix> clusterSubnets,
        boolean networkSegmentation) {
    public ZoneControllerConfig {
        clusterSubnets = List.copyOf(clusterSubnets);
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(nbEndpoint, "nbEndpoint");
        Objects.requireNonNull(sbEndpoint, "sbEndpoint");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(controllerMetrics, "controllerMetrics");
        if (podWorkers < 1 || addressWorkers < 1 || portBatch < 1 || serviceBatch < 1) {
            throw new IllegalArgumentException("workers and batch must be >= 1");
        }
    }

    /**
     * Defaults: 10 s timeouts, 2 port workers writing up to 256 pods' ports per transaction, 8 address workers, up to
     * 1,024 services per load-balancer transaction, no controller metrics, user-defined networks served.
     */
    public static ZoneControllerConfig of(
            String nodeName, String nbEndpoint, String sbEndpoint, EventSink events, TrustZoneMetrics metrics) {
        return new ZoneControllerConfig(
                nodeName,
                nbEndpoint,
                sbEndpoint,
                events,
                metrics,
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                2,
                8,
                256,
                1024,
                ControllerMetrics.NONE,
                ZoneModel.DEFAULT_CLUSTER_SUBNETS,
                true);
    }

    /** Defaults with a fresh metrics registry and no events (tests, benchmarks). */
    public static ZoneControllerConfig of(String nodeName, String nbEndpoint, String sbEndpoint) {
        return of(nodeName, nbEndpoint, sbEndpoint, (o, w, r, m) -> {}, new TrustZoneMetrics(new PrometheusRegistry()));
    }

    /** The same configuration with its controllers reporting to {@code controllerMetrics}. */
    public ZoneControllerConfig withControllerMetrics(ControllerMetrics controllerMetrics) {
        return with(c -> c.controllerMetrics = controllerMetrics);
    }

    /** The same configuration with other worker counts and port batch size. */
    public ZoneControllerConfig withPodWorkers(int podWorkers, int addressWorkers, int portBatch) {
        return with(c -> {
            c.podWorkers = podWorkers;
            c.addressWorkers = addressWorkers;
            c.portBatch = portBatch;
        });
    }

    /** The same configuration for a cluster of these pod networks. */
    public ZoneControllerConfig withClusterSubnets(List<IpPrefix> subnets) {
        return with(c -> c.clusterSubnets = subnets);
    }

    /** The same configuration with user-defined networks served or not. */
    public ZoneControllerConfig withNetworkSegmentation(boolean enabled) {
        return with(c -> c.networkSegmentation = enabled);
    }

    /** Applies {@code change} to a copy of this configuration's components (validated again on the way back). */
    private ZoneControllerConfig with(Consumer<Components> change) {
        Components c = new Components(this);
        change.accept(c);
        return c.config();
    }

    /** The canonical constructor's arguments, one of which a wither changes. */
    private static final class Components {
        String nodeName;
        String nbEndpoint;
        String sbEndpoint;
        EventSink events;
        TrustZoneMetrics metrics;
        Duration ovsdbTimeout;
        Duration syncTimeout;
        int podWorkers;
        int addressWorkers;
        int portBatch;
        int serviceBatch;
        ControllerMetrics controllerMetrics;
        List<IpPrefix> clusterSubnets;
        boolean networkSegmentation;

        Components(ZoneControllerConfig c) {
            nodeName = c.nodeName;
            nbEndpoint = c.nbEndpoint;
            sbEndpoint = c.sbEndpoint;
            events = c.events;
            metrics = c.metrics;
            ovsdbTimeout = c.ovsdbTimeout;
            syncTimeout = c.syncTimeout;
            podWorkers = c.podWorkers;
            addressWorkers = c.addressWorkers;
            portBatch = c.portBatch;
            serviceBatch = c.serviceBatch;
            controllerMetrics = c.controllerMetrics;
            clusterSubnets = c.clusterSubnets;
            networkSegmentation = c.networkSegmentation;
        }

        ZoneControllerConfig config() {
            return new ZoneControllerConfig(
                    nodeName,
                    nbEndpoint,
                    sbEndpoint,
                    events,
                    metrics,
                    ovsdbTimeout,
                    syncTimeout,
                    podWorkers,
                    addressWorkers,
                    portBatch,
                    serviceBatch,
                    controllerMetrics,
                    clusterSubnets,
                    networkSegmentation);
        }
    }
}
