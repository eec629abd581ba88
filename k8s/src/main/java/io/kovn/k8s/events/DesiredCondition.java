package io.kovn.k8s.events;

import java.util.Objects;

/**
 * A status condition as a controller wants it (metav1.Condition without the times, which the {@link ConditionWriter}
 * manages), e.g. {@code Ready-In-Zone-<node>} True/SetupSucceeded.
 */
public record DesiredCondition(String type, Status status, String reason, String message) {

    /** A condition's status. */
    public enum Status {
        True,
        False,
        Unknown
    }

    public DesiredCondition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
        message = message == null ? "" : message;
    }

    public static DesiredCondition isTrue(String type, String reason, String message) {
        return new DesiredCondition(type, Status.True, reason, message);
    }

    public static DesiredCondition isFalse(String type, String reason, String message) {
        return new DesiredCondition(type, Status.False, reason, message);
    }
}
