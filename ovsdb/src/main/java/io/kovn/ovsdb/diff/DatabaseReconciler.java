package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.TransactionResult;
import io.kovn.ovsdb.schema.DatabaseSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Applies an owner's desired rows to one database: {@link Diff} against the current rows, then the whole plan as ONE
 * transaction, every result checked. Startup repair and steady-state reconcile are the same call.
 *
 * <p>Give the monitor cache and the reconciler the same client: ovsdb-server sends a transaction's monitor updates
 * before its reply, and the client applies notifications in arrival order, so the cache already shows the transaction
 * when {@code reconcile} returns and an immediate second reconcile plans nothing.
 *
 * <pre>{@code
 * DatabaseReconciler nb = new DatabaseReconciler(client, "OVN_Northbound", schema, CurrentState.of(cache));
 * switch (nb.reconcile(owner, desired)) {
 *     case PlanOutcome.Noop n -> { }
 *     case PlanOutcome.Applied a -> log.info("applied {}", a.counts());
 *     case PlanOutcome.Stale s -> queue.retry(key);
 * }
 * }</pre>
 */
public final class DatabaseReconciler {
    private final OvsdbClient client;
    private final String database;
    private final DatabaseSchema schema;
    private final Supplier<CurrentState> current;
    /** What its plans proved of current rows: a later plan of an unchanged row compares less. */
    private final SameValues same = new SameValues();

    /**
     * @param client the connected client
     * @param database the database name, e.g. {@code OVN_Northbound}
     * @param schema the database's schema
     * @param current the current rows (normally {@link CurrentState#of(io.kovn.ovsdb.cache.DatabaseCache)})
     */
    public DatabaseReconciler(OvsdbClient client, String database, DatabaseSchema schema, CurrentState current) {
        this(client, database, schema, (Supplier<CurrentState>) () -> current);
        Objects.requireNonNull(current, "current");
    }

    private DatabaseReconciler(
            OvsdbClient client, String database, DatabaseSchema schema, Supplier<CurrentState> current) {
        this.client = Objects.requireNonNull(client, "client");
        this.database = Objects.requireNonNull(database, "database");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.current = current;
    }

    /**
     * A reconciler that takes a fresh current state for every plan, e.g. {@code () -> CurrentState.select(client, db,
     * tables)} where no monitor runs.
     */
    public static DatabaseReconciler snapshotting(
            OvsdbClient client, String database, DatabaseSchema schema, Supplier<CurrentState> current) {
        return new DatabaseReconciler(client, database, schema, Objects.requireNonNull(current, "current"));
    }

    /**
     * Hears an update of the monitor cache its current state reads, so that what its plans proved of a row carries to
     * the row that replaces it (the echo of its own write then compares in O(change), docs/ovsdb.md). Optional:
     * register it as the cache's first listener ({@code cache.addListener(reconciler::observe)}), before anything that
     * plans.
     */
    public void observe(CacheUpdate update) {
        same.carry(update);
    }

    /** The plan that {@link #reconcile} would apply now. */
    public Plan plan(Ownership owner, DesiredState desired) {
        return Diff.of(schema, owner, desired, current.get(), same);
    }

    /**
     * Makes the owner's rows equal the desired ones.
     *
     * @throws io.kovn.ovsdb.client.OperationFailedException when the server refused the transaction (it was rolled
     *     back), naming the failing operation
     */
    public PlanOutcome reconcile(Ownership owner, DesiredState desired) {
        return apply(plan(owner, desired));
    }

    /** Applies a plan in one transaction and checks every result. */
    public PlanOutcome apply(Plan plan) {
        if (plan.isEmpty()) {
            return new PlanOutcome.Noop();
        }
        TransactionResult result = client.transact(database, plan.operations());
        List<Operation> missed = missed(plan.operations(), result);
        return missed.isEmpty()
                ? new PlanOutcome.Applied(plan.counts(), result)
                : new PlanOutcome.Stale(plan.counts(), missed);
    }

    /** The by-uuid updates, mutates and deletes that matched no row. */
    static List<Operation> missed(List<Operation> ops, TransactionResult result) {
        List<Operation> missed = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            Operation op = ops.get(i);
            boolean counted =
                    op instanceof Operation.Update || op instanceof Operation.Mutate || op instanceof Operation.Delete;
            if (counted && result.get(i) instanceof OperationResult.Counted c && c.count() != 1) {
                missed.add(op);
            }
        }
        return missed;
    }
}
