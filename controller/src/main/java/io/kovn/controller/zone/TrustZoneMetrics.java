package io.kovn.controller.zone;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Trust-zone metrics of a zone: how many remote chassis it programs and how many it skips (specification 000: skipped
 * chassis get no SB Chassis row, hence no tunnel).
 */
public final class TrustZoneMetrics {
    private final Gauge remoteChassis;

    /** Registers the metrics in {@code registry} (once per registry; share the instance between zones). */
    public TrustZoneMetrics(PrometheusRegistry registry) {
        this.remoteChassis = Gauge.builder()
                .name("kovn_zone_remote_chassis")
                .help("Remote chassis per zone: programmed (SB Chassis present) or skipped (no common trust zone)")
                .labelNames("zone", "state")
                .register(registry);
    }

    /** Records the latest counts of one zone. */
    public void record(String zone, int programmed, int skipped) {
        remoteChassis.labelValues(zone, "programmed").set(programmed);
        remoteChassis.labelValues(zone, "skipped").set(skipped);
    }

    /** The last recorded count, for tests and the CLI. */
    public double value(String zone, String state) {
        return remoteChassis.labelValues(zone, state).get();
    }
}
