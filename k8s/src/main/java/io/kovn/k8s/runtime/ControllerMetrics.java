package io.kovn.k8s.runtime;

import java.time.Duration;

/**
 * Hooks through which a {@link Controller} and its {@link WorkQueue} report what they do; an implementation exports
 * them (e.g. to Prometheus). Every method has a no-op default; calls happen on worker threads and must be cheap and
 * non-blocking.
 */
public interface ControllerMetrics {

    /** No metrics. */
    ControllerMetrics NONE = new ControllerMetrics() {};

    /** The queue of {@code controller} now holds {@code depth} keys waiting for a worker. */
    default void depth(String controller, int depth) {}

    /** A key of {@code controller} was added (including de-duplicated adds: {@code deduplicated}). */
    default void added(String controller, boolean deduplicated) {}

    /** One reconcile of {@code controller} finished after {@code latency} with {@code result}. */
    default void reconciled(String controller, Duration latency, ReconcileResult result) {}

    /**
     * One reconcile of {@code controller} finished {@code latency} after its key was first queued (the earliest add
     * since the key last started reconciling): queue wait plus reconcile.
     */
    default void queueToDone(String controller, Duration latency, ReconcileResult result) {}

    /** A key of {@code controller} waited {@code waited} in the queue before a worker took it. */
    default void waited(String controller, Duration waited) {}
}
