package io.kovn.ovsdb.client;

import java.time.Duration;

/**
 * Told of every {@code transact} a client finishes, so that a layer above can export latency and errors (the library
 * itself depends on no metrics system). Called on the thread that completes the transaction (often the socket reader):
 * it must be cheap and must not block.
 */
@FunctionalInterface
public interface TransactionListener {
    /** Listens to nothing. */
    TransactionListener NONE = (database, duration, error) -> {};

    /**
     * A transaction on {@code database} finished after {@code duration} (from the call until the answer, or the
     * failure, arrived).
     *
     * @param error {@code null} when the server applied it; else why not (an operation failed, a timeout, a lost
     *     connection)
     */
    void finished(String database, Duration duration, Throwable error);
}
