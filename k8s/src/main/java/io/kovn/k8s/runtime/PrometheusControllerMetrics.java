package io.kovn.k8s.runtime;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;

/**
 * {@link ControllerMetrics} exported to Prometheus, named after controller-runtime's metrics so the usual dashboards
 * read them: {@code kovn_workqueue_depth}, {@code kovn_workqueue_adds_total},
 * {@code kovn_workqueue_queue_duration_seconds} (label {@code name}), and {@code kovn_controller_reconcile_total} /
 * {@code kovn_controller_reconcile_time_seconds} (labels {@code controller}, {@code result} = done | requeue | error),
 * and kovn's own {@code kovn_controller_queue_to_done_seconds} (same labels: from a key's first add to the end of its
 * reconcile, the event latency an operator sees, API server excluded), and
 * {@code kovn_controller_reconcile_errors_total} (label {@code controller}: failed reconciles, each retried with
 * backoff; a controller's series exists from its first reconcile, at zero). Register one per registry and share it
 * between controllers.
 */
public final class PrometheusControllerMetrics implements ControllerMetrics {

    private final Gauge depth;
    private final Counter adds;
    private final Histogram queueDuration;
    private final Counter reconciles;
    private final Counter errors;
    private final Histogram reconcileTime;
    private final Histogram queueToDone;

    public PrometheusControllerMetrics(PrometheusRegistry registry) {
        depth = Gauge.builder()
                .name("kovn_workqueue_depth")
                .help("Keys waiting in a controller's work queue")
                .labelNames("name")
                .register(registry);
        adds = Counter.builder()
                .name("kovn_workqueue_adds_total")
                .help("Keys added to a controller's work queue (de-duplicated adds included)")
                .labelNames("name")
                .register(registry);
        queueDuration = Histogram.builder()
                .name("kovn_workqueue_queue_duration_seconds")
                .help("How long a key waited in the queue before a worker took it")
                .labelNames("name")
                .classicOnly()
                .register(registry);
        reconciles = Counter.builder()
                .name("kovn_controller_reconcile_total")
                .help("Reconciles by result")
                .labelNames("controller", "result")
                .register(registry);
        errors = Counter.builder()
                .name("kovn_controller_reconcile_errors_total")
                .help("Reconciles that failed (the key is retried with backoff)")
                .labelNames("controller")
                .register(registry);
        reconcileTime = Histogram.builder()
                .name("kovn_controller_reconcile_time_seconds")
                .help("Time per reconcile")
                .labelNames("controller", "result")
                .classicOnly()
                .register(registry);
        queueToDone = Histogram.builder()
                .name("kovn_controller_queue_to_done_seconds")
                .help("Time from a key's first add (since its last reconcile started) until its reconcile finished")
                .labelNames("controller", "result")
                .classicOnly()
                .register(registry);
    }

    @Override
    public void depth(String controller, int depth) {
        this.depth.labelValues(controller).set(depth);
    }

    @Override
    public void added(String controller, boolean deduplicated) {
        adds.labelValues(controller).inc();
    }

    @Override
    public void waited(String controller, Duration waited) {
        queueDuration.labelValues(controller).observe(seconds(waited));
    }

    @Override
    public void reconciled(String controller, Duration latency, ReconcileResult result) {
        String label = label(result);
        reconciles.labelValues(controller, label).inc();
        var failures = errors.labelValues(controller); // created at zero by the first reconcile
        if (result instanceof ReconcileResult.Failed) {
            failures.inc();
        }
        reconcileTime.labelValues(controller, label).observe(seconds(latency));
    }

    @Override
    public void queueToDone(String controller, Duration latency, ReconcileResult result) {
        queueToDone.labelValues(controller, label(result)).observe(seconds(latency));
    }

    private static String label(ReconcileResult result) {
        return switch (result) {
            case ReconcileResult.Done done -> "done";
            case ReconcileResult.Requeue requeue -> "requeue";
            case ReconcileResult.Failed failed -> "error";
        };
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
