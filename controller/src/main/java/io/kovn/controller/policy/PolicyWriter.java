package io.kovn.controller.policy;

import io.kovn.ovsdb.client.OperationFailedException;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.diff.PlanOutcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes desired policy rows as ONE transaction, planned against the NB monitor cache. If the server refuses it (a
 * constraint violation, a foreign row in the way), the rows are written again one policy object at a time, so a single
 * bad policy is reported as failed and the others still take effect. Creates the {@code acl-logging} meter when asked
 * or when the NB has none.
 */
final class PolicyWriter {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyWriter.class);
    /** A UUID as ovsdb-server's error details print them. */
    private static final Pattern UUID =
            Pattern.compile("\\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b");

    private final String zone;
    private final String controller;
    private final PolicyTables nb;
    private final Owner owner;
    /** Runs right before each transaction (tests make a change behind the controller's back there). */
    private volatile Runnable beforeTransaction = () -> {};

    private volatile long lastTransactNanos;

    PolicyWriter(String zone, String controller, PolicyTables nb) {
        this.zone = zone;
        this.controller = controller;
        this.nb = nb;
        this.owner = NorthboundRows.owner(controller);
    }

    /** Makes every policy row of the zone, and the meter, equal {@code desired}. */
    PolicyWrite write(DesiredState desired) {
        return write(desired, true);
    }

    /**
     * Makes the policy rows {@code desired} covers equal it (every row of the zone where a table is not scoped), and
     * the meter too when {@code meter} or when the NB has none, in one transaction.
     */
    PolicyWrite write(DesiredState desired, boolean meter) {
        lastTransactNanos = 0;
        try {
            List<Plan> plans = new ArrayList<>();
            if (meter || !nb.hasMeter(NorthboundRows.METER)) {
                plans.add(
                        nb.reconciler().plan(NorthboundRows.meterOwner(controller), NorthboundRows.meter(controller)));
            }
            plans.add(nb.reconciler().plan(owner, desired));
            Plan plan = plans.size() == 1 ? plans.getFirst() : Plan.concat(plans);
            long sent = System.nanoTime();
            PlanOutcome result = apply(plan);
            lastTransactNanos = System.nanoTime() - sent;
            return switch (result) {
                case PlanOutcome.Noop n -> new PolicyWrite.Written(plan.counts(), Map.of());
                case PlanOutcome.Applied a -> new PolicyWrite.Written(plan.counts(), perTable(plan));
                case PlanOutcome.Stale s -> new PolicyWrite.Stale();
            };
        } catch (OperationFailedException e) {
            LOG.warn(
                    "zone {}: the policy transaction was refused ({}); writing policy by policy", zone, e.getMessage());
            return onePolicyAtATime(desired);
        } catch (RuntimeException e) {
            return new PolicyWrite.Failed(Optional.of(describe(e)), Map.of());
        }
    }

    /** Operations by table. */
    private static Map<String, Integer> perTable(Plan plan) {
        Map<String, Integer> out = new HashMap<>();
        plan.operations().forEach(op -> out.merge(op.table(), 1, Integer::sum));
        return Map.copyOf(out);
    }

    private PlanOutcome apply(Plan plan) {
        if (plan.isEmpty()) {
            return new PlanOutcome.Noop();
        }
        beforeTransaction.run();
        return nb.reconciler().apply(plan);
    }

    private PolicyWrite onePolicyAtATime(DesiredState desired) {
        Map<PolicyOwner, DesiredState> groups = NorthboundRows.byPolicy(desired, this::currentOwner);
        Set<PolicyOwner> owners = new LinkedHashSet<>(groups.keySet());
        for (String table : NorthboundRows.TABLES) {
            if (desired.tables().get(table) instanceof DesiredState.TableState t
                    && t.scope().isEmpty()) {
                for (Row r : nb.cache().table(table).rows()) {
                    if (owner.owns(r)) {
                        PolicyOwner.of(r).ifPresent(owners::add); // rows of deleted policies go too
                    }
                }
            }
        }
        Map<PolicyOwner, String> failures = new HashMap<>();
        boolean stale = false;
        for (PolicyOwner o : owners) {
            try {
                DesiredState rows =
                        groups.getOrDefault(o, NorthboundRows.empty().build());
                stale |= apply(nb.reconciler().plan(o.owner(controller), rows)) instanceof PlanOutcome.Stale;
            } catch (RuntimeException e) {
                failures.put(o, describe(e));
                LOG.warn("zone {}: rows of {} {} refused: {}", zone, o.type(), o.name(), e.getMessage());
            }
        }
        if (!failures.isEmpty()) {
            return new PolicyWrite.Failed(Optional.empty(), failures);
        }
        return stale ? new PolicyWrite.Stale() : new PolicyWrite.Written(new Plan.Counts(0, 0, 0, 0), Map.of());
    }

    /** The owner of the current row of ours with this id in this table, if there is one. */
    private Optional<PolicyOwner> currentOwner(String table, String id) {
        return nb.cache().table(table).byExternalId(Owner.ID, id).stream()
                .filter(owner::owns)
                .findFirst()
                .flatMap(PolicyOwner::of);
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

    /** Runs {@code hook} on the reconcile thread right before each transaction: for tests only. */
    void beforeEachTransaction(Runnable hook) {
        beforeTransaction = hook;
    }
}
