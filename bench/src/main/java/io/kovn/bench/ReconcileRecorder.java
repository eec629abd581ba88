package io.kovn.bench;

import io.kovn.controller.policy.PolicyReconciler;
import io.kovn.policy.model.DesiredPolicyState;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * What the benchmarks read of the policy reconciles, recorded from the first: their durations (the most recent
 * {@value #KEPT}), the first and the last phases, the last translation. The controller keeps none of it.
 */
final class ReconcileRecorder implements PolicyReconciler.Observer {
    private static final int KEPT = 10_000;

    private final ArrayDeque<Long> durations = new ArrayDeque<>();
    private PolicyReconciler.Phases first;
    private PolicyReconciler.Phases last = new PolicyReconciler.Phases(0, 0, 0, 0, 0);
    private DesiredPolicyState state;

    @Override
    public synchronized void reconciled(long nanos, PolicyReconciler.Phases phases, DesiredPolicyState translated) {
        if (durations.size() == KEPT) {
            durations.removeFirst();
        }
        durations.addLast(nanos);
        if (phases != null) {
            first = first == null ? phases : first;
            last = phases;
        }
        if (translated != null) {
            state = translated;
        }
    }

    /** Durations (ns) of the most recent reconciles, oldest first (at most {@value #KEPT}). */
    synchronized long[] recentDurations() {
        return durations.stream().mapToLong(Long::longValue).toArray();
    }

    /** The phases of the first reconcile that wrote (the one that converges a zone), if it ran. */
    synchronized Optional<PolicyReconciler.Phases> firstPhases() {
        return Optional.ofNullable(first);
    }

    /** The phases of the last reconcile that wrote. */
    synchronized PolicyReconciler.Phases lastPhases() {
        return last;
    }

    /** The last translation (null before the first reconcile that wrote). */
    synchronized DesiredPolicyState lastState() {
        return state;
    }
}
