package io.kovn.controller.zone;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The timings of one reconciler's most recent reconciles (at most {@value #KEPT}, oldest first), for benchmarks and
 * diagnostics. Thread-safe.
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

    /** Starts timing one reconcile; {@link Stopwatch#stop} records it. */
    Stopwatch start() {
        return new Stopwatch(System.nanoTime());
    }

    /** The timing of one reconcile under way. Not thread-safe: one per reconcile. */
    final class Stopwatch {
        private final long started;
        private long computed = -1;
        private int operations;

        private Stopwatch(long started) {
            this.started = started;
        }

        /** The plan is made: {@code operations} to send. */
        void computed(int operations) {
            this.computed = System.nanoTime() - started;
            this.operations = operations;
        }

        /** Records the reconcile (in a {@code finally}, so every exit counts). */
        void stop() {
            record(new Sample(System.nanoTime() - started, computed, operations));
        }
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
