package io.kovn.ovsdb.client;

import java.util.concurrent.atomic.AtomicLong;

/** What a client has sent: transactions and their operations (e.g. to prove a restart wrote nothing). */
public final class TrafficCounters {
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong writeOperations = new AtomicLong();

    void recordTransaction(int ops, int writes) {
        transactions.incrementAndGet();
        operations.addAndGet(ops);
        writeOperations.addAndGet(writes);
    }

    /** Transactions sent. */
    public long transactions() {
        return transactions.get();
    }

    /** Operations sent, all kinds. */
    public long operations() {
        return operations.get();
    }

    /** insert, update, mutate and delete operations sent. */
    public long writeOperations() {
        return writeOperations.get();
    }

    /** A copy of the current values. */
    public Snapshot snapshot() {
        return new Snapshot(transactions(), operations(), writeOperations());
    }

    /** Counter values at one moment; subtract two to measure an interval. */
    public record Snapshot(long transactions, long operations, long writeOperations) {
        public Snapshot minus(Snapshot earlier) {
            return new Snapshot(
                    transactions - earlier.transactions,
                    operations - earlier.operations,
                    writeOperations - earlier.writeOperations);
        }
    }
}
