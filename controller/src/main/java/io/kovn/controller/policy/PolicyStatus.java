package io.kovn.controller.policy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kovn.controller.events.EventSink;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyStatus;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.events.DesiredCondition;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyReport;
import io.kovn.policy.model.PolicyWarning;
import io.kovn.policy.model.ZoneCondition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes what one policy reconcile concluded: the zone's {@code Ready-In-Zone-<zone>} condition on every ANP, BANP
 * and ClusterNetworkPolicy (merge patch of the status subresource, only when the cached object does not hold it
 * already; several at a time), and a Warning event per distinct problem (once, not once per reconcile).
 */
final class PolicyStatus {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyStatus.class);
    /** Condition writes in flight at once (each its own object: they never conflict with each other). */
    static final int IN_FLIGHT = 8;

    private final String zone;
    private final ConditionWriter conditions;
    private final EventSink events;
    private final Set<String> reported = new HashSet<>();

    PolicyStatus(String zone, ConditionWriter conditions, EventSink events) {
        this.zone = zone;
        this.conditions = conditions;
        this.events = events;
    }

    /**
     * Publishes the reports of one reconcile.
     *
     * @param reports the translation's reports
     * @param writeError why the policy's rows could not be written to the NB, if they could not
     * @param lookup the cached Kubernetes object a report is about, if it still exists
     * @return how many conditions could not be written (the caller retries)
     */
    int publish(
            List<PolicyReport> reports,
            Function<PolicyRef, Optional<String>> writeError,
            Function<PolicyRef, Optional<HasMetadata>> lookup) {
        List<Write> writes = new ArrayList<>();
        Set<String> now = new HashSet<>();
        for (PolicyReport report : reports) {
            Optional<HasMetadata> object = lookup.apply(report.policy());
            if (object.isEmpty()) {
                continue;
            }
            for (PolicyWarning w : report.warnings()) {
                String id = report.policy() + "|" + w.reason() + "|" + w.message();
                now.add(id);
                if (!reported.contains(id)) {
                    events.warning(object.get(), w.reason(), w.message());
                }
            }
            if (PolicyRef.NETWORK_POLICY.equals(report.policy().kind())) {
                continue;
            }
            ZoneCondition wanted = writeError
                    .apply(report.policy())
                    .map(e -> ZoneCondition.failed(zone, e))
                    .orElseGet(() -> condition(report, zone));
            if (!holds(object.get(), wanted)) {
                writes.add(new Write(report.policy(), object.get(), wanted));
            }
        }
        reported.retainAll(now);
        reported.addAll(now);
        return write(writes);
    }

    private record Write(PolicyRef policy, HasMetadata object, ZoneCondition condition) {}

    /**
     * The zone's condition once the policy's rows are written: the translation's, except that a policy with rules kovn
     * refuses to enforce (a {@code domainNames} peer) is not reported ready: {@code False}, reason
     * {@value PolicyWarning#DOMAIN_NAMES_NOT_SUPPORTED}, naming the rules (its other rules are programmed, the refused
     * peers match nothing). A refusal must never read as accepted.
     */
    static ZoneCondition condition(PolicyReport report, String zone) {
        ZoneCondition translated = report.condition(zone);
        if ("False".equals(translated.status())) {
            return translated;
        }
        List<String> refused = report.warnings().stream()
                .filter(w -> PolicyWarning.DOMAIN_NAMES_NOT_SUPPORTED.equals(w.reason()))
                .map(PolicyWarning::message)
                .toList();
        if (refused.isEmpty()) {
            return translated;
        }
        return new ZoneCondition(
                translated.type(),
                "False",
                PolicyWarning.DOMAIN_NAMES_NOT_SUPPORTED,
                String.join("; ", refused) + " (the policy's other rules are programmed)");
    }

    /**
     * Writes the conditions, up to {@link #IN_FLIGHT} at a time: each is one request, and at start a zone writes one
     * per ANP (101 at the benchmark's scale, ~3 s one after another on the mock API server) while its next events wait
     * for the worker. Returns how many failed.
     */
    private int write(List<Write> writes) {
        if (writes.size() <= 1) {
            return (int) writes.stream().filter(w -> !write(w)).count();
        }
        Semaphore slots = new Semaphore(IN_FLIGHT);
        AtomicInteger failed = new AtomicInteger();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Write w : writes) {
                slots.acquireUninterruptibly();
                pool.execute(() -> {
                    try {
                        if (!write(w)) {
                            failed.incrementAndGet();
                        }
                    } finally {
                        slots.release();
                    }
                });
            }
        } // close() waits for every write
        return failed.get();
    }

    private boolean write(Write w) {
        try {
            conditions.set(w.object(), desired(w.condition()));
            return true;
        } catch (RuntimeException e) {
            LOG.warn("zone {}: cannot write {} on {}: {}", zone, w.condition().type(), w.policy(), e.toString());
            return false;
        }
    }

    /** Whether the cached object already carries the condition (then no read and no write). */
    static boolean holds(HasMetadata object, ZoneCondition wanted) {
        List<Condition> conditions = switch (object) {
            case AdminNetworkPolicy anp -> conditionsOf(anp.getStatus());
            case BaselineAdminNetworkPolicy banp -> conditionsOf(banp.getStatus());
            case ClusterNetworkPolicy cnp ->
                cnp.getStatus() == null ? List.of() : cnp.getStatus().conditions();
            default -> List.of();
        };
        for (Condition c : conditions) {
            if (wanted.type().equals(c.getType())) {
                return wanted.status().equals(c.getStatus())
                        && wanted.reason().equals(c.getReason())
                        && Objects.equals(wanted.message(), c.getMessage());
            }
        }
        return false;
    }

    private static List<Condition> conditionsOf(AdminNetworkPolicyStatus status) {
        return status == null ? List.of() : status.conditions();
    }

    static DesiredCondition desired(ZoneCondition c) {
        return new DesiredCondition(c.type(), DesiredCondition.Status.valueOf(c.status()), c.reason(), c.message());
    }
}
