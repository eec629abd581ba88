package io.kovn.k8s.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * What one reconcile of a key concluded. Consumed by the {@link Controller} with a pattern-matching {@code switch}:
 * {@link Done} forgets the key's failure history, {@link Requeue} reconciles the key again after a delay without
 * counting a failure, {@link Failed} re-queues it with per-key exponential backoff (retries are unlimited: a
 * level-driven reconcile converges once the world allows).
 */
public sealed interface ReconcileResult {

    /** The key's actual state matches its desired state. */
    record Done() implements ReconcileResult {}

    /** Reconcile the key again after {@code after}, e.g. to poll something outside Kubernetes. */
    record Requeue(Duration after) implements ReconcileResult {
        public Requeue {
            Objects.requireNonNull(after, "after");
            if (after.isNegative()) {
                throw new IllegalArgumentException("negative requeue delay " + after);
            }
        }
    }

    /** The reconcile could not complete; the key is retried with backoff. */
    record Failed(Throwable error) implements ReconcileResult {
        public Failed {
            Objects.requireNonNull(error, "error");
        }
    }

    Done DONE = new Done();

    static ReconcileResult done() {
        return DONE;
    }

    static ReconcileResult requeue(Duration after) {
        return new Requeue(after);
    }

    static ReconcileResult failed(Throwable error) {
        return new Failed(error);
    }
}
