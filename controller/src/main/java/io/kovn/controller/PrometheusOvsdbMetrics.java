package io.kovn.controller;

import io.kovn.ovsdb.client.TransactionListener;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;

/**
 * OVSDB transactions exported to Prometheus: {@code kovn_ovsdb_transaction_duration_seconds{database}} (every
 * transaction, failed ones included) and {@code kovn_ovsdb_transaction_errors_total{database}} (a failed operation, a
 * timeout, a lost connection). The label is the database's name (OVN_Northbound, OVN_Southbound, Open_vSwitch): a
 * handful of series per process.
 */
public final class PrometheusOvsdbMetrics implements TransactionListener {
    /** The databases a node process writes, whose series exist from the start (zero until the first transaction). */
    public static final List<String> DATABASES = List.of("OVN_Northbound", "OVN_Southbound", "Open_vSwitch");

    private final Histogram duration;
    private final Counter errors;

    /** Registers the metrics in {@code registry} (once per registry). */
    public PrometheusOvsdbMetrics(PrometheusRegistry registry) {
        duration = Histogram.builder()
                .name("kovn_ovsdb_transaction_duration_seconds")
                .help("Time from sending an OVSDB transaction until its answer (or failure)")
                .labelNames("database")
                .classicOnly()
                .classicUpperBounds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
                .register(registry);
        errors = Counter.builder()
                .name("kovn_ovsdb_transaction_errors_total")
                .help("OVSDB transactions that failed: an operation's error, no answer in time, or the connection lost")
                .labelNames("database")
                .register(registry);
        for (String database : DATABASES) {
            duration.labelValues(database);
            errors.labelValues(database);
        }
    }

    @Override
    public void finished(String database, Duration took, Throwable error) {
        duration.labelValues(database).observe(took.toNanos() / 1e9);
        if (error != null) {
            errors.labelValues(database).inc();
        }
    }
}
