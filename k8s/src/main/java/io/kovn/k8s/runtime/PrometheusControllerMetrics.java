package io.kovn.k8s.runtime;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;

/**
 * {@link ControllerMetrics} exported to Prometheus, named after controller-runtime's metrics so the
 * usual dashboards read them: {@code kovn_workqueue_depth}, {@code kovn_workqueue_adds_total},
 * {@code kovn_workqueue_queue_duration_seconds} (label {@code name}), and
 * {@code kovn_controller_reconcile_total} / {@code kovn_controller_reconcile_time_seconds}
 * (labels {@code controller}, {@code result} = done | requeue | error). Register one per registry
 * and share it between controllers.
 */
public final class PrometheusControllerMetrics implements ControllerMetrics {

  private final Gauge depth;
  private final Counter adds;
  private final Histogram queueDuration;
  private final Counter reconciles;
  private final Histogram reconcileTime;

  public PrometheusControllerMetrics(PrometheusRegistry registry) {
    depth = Gauge.builder().name("kovn_workqueue_depth")
        .help("Keys waiting in a controller's work queue").labelNames("name").register(registry);
    adds = Counter.builder().name("kovn_workqueue_adds_total")
        .help("Keys added to a controller's work queue (de-duplicated adds included)").labelNames("name").register(registry);
    queueDuration = Histogram.builder().name("kovn_workqueue_queue_duration_seconds")
        .help("How long a key waited in the queue before a worker took it").labelNames("name")
        .classicOnly().register(registry);
    reconciles = Counter.builder().name("kovn_controller_reconcile_total")
        .help("Reconciles by result").labelNames("controller", "result").register(registry);
    reconcileTime = Histogram.builder().name("kovn_controller_reconcile_time_seconds")
        .help("Time per reconcile").labelNames("controller", "result").classicOnly().register(registry);
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
    String label = switch (result) {
      case ReconcileResult.Done done -> "done";
      case ReconcileResult.Requeue requeue -> "requeue";
      case ReconcileResult.Failed failed -> "error";
    };
    reconciles.labelValues(controller, label).inc();
    reconcileTime.labelValues(controller, label).observe(seconds(latency));
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
