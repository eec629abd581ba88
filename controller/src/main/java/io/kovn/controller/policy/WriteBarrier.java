package io.kovn.controller.policy;

import java.util.concurrent.TimeUnit;

/**
 * The policy reconciles of a zone as a sequence: how many started, and the latest one whose write the NB acknowledged.
 * A reconcile reads the informer caches and the NB cache after it starts, so "a reconcile that started after I saw X
 * has written" means "the NB holds the rows for X" (or for a later state), which is what
 * {@link PolicyController#awaitPodAddresses} waits for.
 */
final class WriteBarrier {
    private long started;
    private long written;
    private boolean closed;

    /** Numbers a reconcile as it starts (before it reads anything). */
    synchronized long start() {
        return ++started;
    }

    /** The number of the last reconcile that started. */
    synchronized long started() {
        return started;
    }

    /** Reconcile {@code reconcile}'s write was acknowledged (an empty write counts: nothing differed). */
    synchronized void written(long reconcile) {
        if (reconcile > written) {
            written = reconcile;
            notifyAll();
        }
    }

    /**
     * Waits until a reconcile numbered above {@code reconcile} has written.
     *
     * @return false when {@code deadlineNanos} ({@link System#nanoTime()}) passed or the barrier closed first
     */
    synchronized boolean awaitWrittenAfter(long reconcile, long deadlineNanos) throws InterruptedException {
        while (written <= reconcile) {
            long left = deadlineNanos - System.nanoTime();
            if (closed || left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    synchronized boolean closed() {
        return closed;
    }

    /** Releases every waiter (the controller stops). */
    synchronized void close() {
        closed = true;
        notifyAll();
    }
}
