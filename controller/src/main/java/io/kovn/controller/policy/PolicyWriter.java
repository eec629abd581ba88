package io.kovn.controller.policy;

import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.client.OperationFailedException;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Ownership;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.PlanOutcome;
import io.kovn.ovsdb.ops.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the zone's desired policy rows: normally ONE transaction over every policy owner type. If the server refuses
 * it (a constraint violation, a foreign row in the way), the rows are written again one policy object at a time, so a
 * single bad policy is reported as failed and the others still take effect. Creates the {@code acl-logging} meter first
 * when the NB has none.
 */
final class PolicyWriter {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyWriter.class);
    /** A UUID as ovsdb-server's error details print them. */
    private static final Pattern UUID =
            Pattern.compile("\\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b");

    private final String zone;
    private final String controller;
    private final PolicyNorthbound nb;
    private final Owner owner;
    /** The transaction in flight, read by the NB monitor's thread to tell its own changes from drift. */
    private volatile OwnWrites inFlight = OwnWrites.NONE;
    /** Runs right before each transaction (tests make a change behind the controller's back there). */
    private volatile Runnable beforeTransaction = () -> {};

    private volatile long lastTransactNanos;

    PolicyWriter(String zone, String controller, PolicyNorthbound nb) {
        this.zone = zone;
        this.controller = controller;
        this.nb = nb;
        this.owner = NorthboundRows.owner(controller);
    }

    /** Makes the zone's policy rows equal {@code desired}. */
    PolicyWrite write(DesiredState desired) {
        return write(desired, owner, List.of(), () -> desired);
    }

    /**
     * Makes the rows in {@code scope} equal {@code desired} (the desired rows of exactly that scope), with {@code more}
     * operations decided elsewhere in the same transaction; if the server refuses, the zone's {@code whole} desired
     * state is written policy by policy.
     */
    PolicyWrite write(DesiredState desired, Ownership scope, List<Operation> more, Supplier<DesiredState> whole) {
        lastTransactNanos = 0;
        try {
            if (!nb.hasMeter(NorthboundRows.METER)) {
                reconcile(NorthboundRows.meterOwner(controller), NorthboundRows.meter(controller));
            }
            Plan plan = nb.reconciler().plan(scope, desired);
            if (!more.isEmpty()) {
                List<Operation> ops = new ArrayList<>(plan.operations());
                ops.addAll(more);
                plan = Plan.of(ops);
            }
            long sent = System.nanoTime();
            PlanOutcome result = apply(plan, scope, desired);
            lastTransactNanos = System.nanoTime() - sent;
            return switch (result) {
                case PlanOutcome.Noop n -> new PolicyWrite.Written(plan.counts());
                case PlanOutcome.Applied a -> new PolicyWrite.Written(plan.counts());
                case PlanOutcome.Stale s -> new PolicyWrite.Stale();
            };
        } catch (OperationFailedException e) {
            LOG.warn(
                    "zone {}: the policy transaction was refused ({}); writing policy by policy", zone, e.getMessage());
            return onePolicyAtATime(whole.get());
        } catch (RuntimeException e) {
            return new PolicyWrite.Failed(Optional.of(describe(e)), Map.of());
        }
    }

    /** Makes the rows {@code scope} owns equal {@code desired}, in one transaction. */
    private PlanOutcome reconcile(Ownership scope, DesiredState desired) {
        return apply(nb.reconciler().plan(scope, desired), scope, desired);
    }

    /**
     * Applies one plan as one transaction, known as in flight until its reply: ovsdb-server sends its monitor updates
     * before the reply, so they all arrive meanwhile.
     */
    private PlanOutcome apply(Plan plan, Ownership scope, DesiredState desired) {
        if (plan.isEmpty()) {
            return new PlanOutcome.Noop();
        }
        inFlight = OwnWrites.of(plan.operations(), scope, desired);
        try {
            beforeTransaction.run();
            return nb.reconciler().apply(plan);
        } finally {
            inFlight = OwnWrites.NONE;
        }
    }

    private PolicyWrite onePolicyAtATime(DesiredState desired) {
        Map<PolicyOwner, DesiredState> groups = NorthboundRows.byPolicy(desired);
        Set<PolicyOwner> owners = new LinkedHashSet<>(groups.keySet());
        for (String table : NorthboundRows.TABLES) {
            for (Row r : nb.cache().table(table).rows()) {
                if (owner.owns(r)) {
                    PolicyOwner.of(r).ifPresent(owners::add); // rows of deleted policies go too
                }
            }
        }
        Map<PolicyOwner, String> failures = new HashMap<>();
        boolean stale = false;
        for (PolicyOwner o : owners) {
            try {
                DesiredState rows =
                        groups.getOrDefault(o, NorthboundRows.empty().build());
                stale |= reconcile(o.owner(controller), rows) instanceof PlanOutcome.Stale;
            } catch (RuntimeException e) {
                failures.put(o, describe(e));
                LOG.warn("zone {}: rows of {} {} refused: {}", zone, o.type(), o.name(), e.getMessage());
            }
        }
        if (!failures.isEmpty()) {
            return new PolicyWrite.Failed(Optional.empty(), failures);
        }
        return stale ? new PolicyWrite.Stale() : new PolicyWrite.Written(new Plan.Counts(0, 0, 0, 0));
    }

    private String describe(RuntimeException e) {
        return "failed to apply the policy rows to zone " + zone + ": "
                + withoutNewRowUuids(
                        String.valueOf(e.getMessage()),
                        uuid -> nb.cache().tables().stream()
                                .anyMatch(t -> nb.cache().table(t).get(uuid).isPresent()));
    }

    /**
     * The server's refusal with the UUIDs of rows that do not exist replaced: those are rows the refused transaction
     * inserted, a new UUID on every try. The same refusal then reads the same each time, so the policy's condition (and
     * its event) does not change with every retry, and a condition write does not bring the next retry forward (the
     * policy's status is watched). The rows in the way, which exist, keep their UUIDs.
     */
    static String withoutNewRowUuids(String message, Predicate<Uuid> exists) {
        return UUID.matcher(message).replaceAll(m -> exists.test(Uuid.of(m.group())) ? m.group() : "(new)");
    }

    /**
     * How long the last write's transaction took, from sending it until the NB's reply (and the monitor update before
     * it) was applied; 0 when there was nothing to send.
     */
    long lastTransactNanos() {
        return lastTransactNanos;
    }

    /**
     * Whether a change the NB monitor reports is one of the transaction in flight (which needs no new reconcile); any
     * other change to a policy row, also while a write is in progress, is drift.
     */
    boolean ownChange(RowChange change) {
        return inFlight.covers(change);
    }

    /** Runs {@code hook} on the reconcile thread right before each transaction: for tests only. */
    void beforeEachTransaction(Runnable hook) {
        beforeTransaction = hook;
    }
}
