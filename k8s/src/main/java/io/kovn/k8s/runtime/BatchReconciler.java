package io.kovn.k8s.runtime;

import java.util.List;
import java.util.Map;

/**
 * A {@link Reconciler} that can also reconcile several keys in one pass, e.g. to write many objects in one transaction
 * at start-up or in a burst. The {@link Controller} calls {@link #reconcileAll} only when a worker took more than one
 * queued key ({@link Controller.Builder#batch}); a single key still goes through {@link #reconcile}, so the steady
 * state is unchanged.
 *
 * <p>Each key of a batch is still reconciled by one worker at a time, and its result is handled exactly as a single
 * reconcile's (retry with backoff, requeue, metrics). A thrown exception fails every key of the batch: each is then
 * retried by itself, so one bad key cannot hold back the others for more than one attempt.
 *
 * @param <K> the key type
 */
public interface BatchReconciler<K> extends Reconciler<K> {

    /**
     * Reconciles {@code keys} (distinct, at least two) together.
     *
     * @return a result for every key; a key without one counts as failed
     */
    Map<K, ReconcileResult> reconcileAll(List<K> keys) throws Exception;
}
