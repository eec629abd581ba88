package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PrometheusControllerMetricsTest {

    @Test
    void aControllerReportsAddsReconcilesByResultAndQueueDepth() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        AtomicInteger calls = new AtomicInteger();
        Reconciler<String> failOnce = key -> calls.incrementAndGet() == 1
                ? ReconcileResult.failed(new IllegalStateException("once"))
                : ReconcileResult.done();
        try (var controller = Controller.builder("zone-pods", failOnce)
                .backoff(new Backoff(Duration.ofMillis(5), Duration.ofMillis(50)))
                .metrics(new PrometheusControllerMetrics(registry))
                .build()) {
            controller.start();
            controller.enqueue("a");
            await().atMost(Duration.ofSeconds(2)).until(() -> calls.get() == 2);
        }
        assertThat(counter(
                        registry, "kovn_controller_reconcile", Labels.of("controller", "zone-pods", "result", "error")))
                .isEqualTo(1);
        assertThat(counter(
                        registry, "kovn_controller_reconcile", Labels.of("controller", "zone-pods", "result", "done")))
                .isEqualTo(1);
        assertThat(counter(registry, "kovn_controller_reconcile_errors", Labels.of("controller", "zone-pods")))
                .isEqualTo(1);
        assertThat(counter(registry, "kovn_workqueue_adds", Labels.of("name", "zone-pods")))
                .isEqualTo(2);
        HistogramSnapshot queueToDone = (HistogramSnapshot) snapshot(registry, "kovn_controller_queue_to_done_seconds");
        assertThat(queueToDone.getDataPoints())
                .extracting(point -> point.getLabels().get("result"), point -> point.getCount())
                .containsExactlyInAnyOrder(tuple("error", 1L), tuple("done", 1L));
        GaugeSnapshot depth = (GaugeSnapshot) snapshot(registry, "kovn_workqueue_depth");
        assertThat(depth.getDataPoints())
                .singleElement()
                .satisfies(point -> assertThat(point.getValue()).isZero());
    }

    @Test
    void aControllerThatNeverFailedExportsZeroErrors() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        AtomicInteger calls = new AtomicInteger();
        try (var controller = Controller.<String>builder("nodes", key -> {
                    calls.incrementAndGet();
                    return ReconcileResult.done();
                })
                .metrics(new PrometheusControllerMetrics(registry))
                .build()) {
            controller.start();
            controller.enqueue("a");
            await().atMost(Duration.ofSeconds(2)).until(() -> calls.get() == 1);
        }
        assertThat(counter(registry, "kovn_controller_reconcile_errors", Labels.of("controller", "nodes")))
                .isZero();
    }

    private static double counter(PrometheusRegistry registry, String name, Labels labels) {
        CounterSnapshot snapshot = (CounterSnapshot) snapshot(registry, name);
        return snapshot.getDataPoints().stream()
                .filter(point -> point.getLabels().equals(labels))
                .findFirst()
                .orElseThrow()
                .getValue();
    }

    private static MetricSnapshot snapshot(PrometheusRegistry registry, String name) {
        return registry.scrape().stream()
                .filter(s -> s.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
