package io.kovn.k8s.runtime;

/**
 * Brings the world in line with the desired state of one key. Level-driven: it receives only the key, never the event
 * that caused it, and reads current state from informer caches (or an OVSDB cache). The {@link Controller} never runs
 * two reconciles of the same key at once; different keys run in parallel. A thrown exception is treated like
 * {@link ReconcileResult.Failed}.
 *
 * @param <K> the key type, usually {@link ObjectKey}
 */
@FunctionalInterface
public interface Reconciler<K> {

    ReconcileResult reconcile(K key) throws Exception;
}
