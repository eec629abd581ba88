package io.kovn.policy.model;

import java.util.List;
import java.util.Optional;

/**
 * What the translation has to say about one policy: warnings (→ Warning events) and, if the policy could not be
 * programmed, why (→ {@code Ready-In-Zone} False).
 *
 * @param policy the policy
 * @param warnings problems with its content; the policy is still applied as far as possible
 * @param failure why the policy's rows are absent from the desired state, if they are
 */
public record PolicyReport(PolicyRef policy, List<PolicyWarning> warnings, Optional<String> failure) {
    public PolicyReport {
        warnings = List.copyOf(warnings);
    }

    /**
     * The zone condition to publish once the desired state has been written successfully; a controller whose
     * transaction failed publishes {@link ZoneCondition#failed} with the error instead.
     */
    public ZoneCondition condition(String zone) {
        return failure.map(error -> ZoneCondition.failed(zone, error)).orElseGet(() -> ZoneCondition.succeeded(zone));
    }
}
