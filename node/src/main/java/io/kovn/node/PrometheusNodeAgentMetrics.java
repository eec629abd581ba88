package io.kovn.node;

import io.kovn.node.cni.CniCommand;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;

/**
 * The node agent's metrics in Prometheus: {@code kovn_cni_request_duration_seconds{command,result}} (result = success |
 * error) and {@code kovn_pod_creation_to_network_ready_seconds}. ADD and DEL series exist from the start, so a
 * dashboard shows zero rather than no data on a node that has not wired a pod yet.
 */
public final class PrometheusNodeAgentMetrics implements NodeAgentMetrics {
    private final Histogram cni;
    private final Histogram ready;

    /** Registers the metrics in {@code registry} (once per registry). */
    public PrometheusNodeAgentMetrics(PrometheusRegistry registry) {
        cni = Histogram.builder()
                .name("kovn_cni_request_duration_seconds")
                .help("Time the node agent took to answer a CNI call (ADD includes waiting for the pod's addresses"
                        + " and for the zone's policies)")
                .labelNames("command", "result")
                .classicOnly()
                .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
                .register(registry);
        ready = Histogram.builder()
                .name("kovn_pod_creation_to_network_ready_seconds")
                .help("From a pod's creationTimestamp until CNI ADD answered with its network plumbed")
                .classicOnly()
                .classicUpperBounds(0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300)
                .register(registry);
        for (CniCommand command : new CniCommand[] {CniCommand.ADD, CniCommand.DEL}) {
            cni.labelValues(command.name(), "success");
            cni.labelValues(command.name(), "error");
        }
    }

    @Override
    public void answered(CniCommand command, boolean ok, Duration duration) {
        cni.labelValues(command.name(), ok ? "success" : "error").observe(duration.toNanos() / 1e9);
    }

    @Override
    public void podNetworkReady(Duration sinceCreation) {
        ready.observe(sinceCreation.toNanos() / 1e9);
    }
}
