package io.kovn.controller.zone;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The timings of one reconciler's most recent reconciles (at most {@value #KEPT}, oldest first),
 * for benchmarks and diagnostics. Thread-safe.
 */
public final class ReconcileTimes {
    static final int KEPT = 10_000;

    /**
     * One reconcile.
     *
     * @param nanos the whole reconcile, I/O included
     * @param computeNanos the part before any write (model and diff), or -1 when it computed no plan
     * @param operations OVSDB operations it sent (0 for a converged key)
     */
    public record Sample(long nanos, long computeNanos, int operations) {}

    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private long total;

    synchronized void record(Sample sample) {
        total++;
        if (samples.size() == KEPT) {
            samples.removeFirst();
        }
        samples.addLast(sample);
    }

    /** The recent reconciles, oldest first. */
    public synchronized List<Sample> recent() {
        return List.copyOf(samples);
    }

    /** How many reconciles were recorded in all (also those no longer kept). */
    public synchronized long count() {
        return total;
    }
}
