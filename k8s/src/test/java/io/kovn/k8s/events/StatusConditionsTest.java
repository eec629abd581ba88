package io.kovn.k8s.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusConditionsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-01T00:05:00Z");
    private static final DesiredCondition READY =
            DesiredCondition.isTrue("Ready-In-Zone-a", "SetupSucceeded", "Setting up OVN DB plumbing was successful");

    private static Map<String, Object> condition(
            String type, String status, String reason, String message, Instant at, long gen) {
        return Map.of(
                "type",
                type,
                "status",
                status,
                "reason",
                reason,
                "message",
                message,
                "lastTransitionTime",
                at.toString(),
                "observedGeneration",
                gen);
    }

    @Test
    void anAbsentConditionIsAppendedAfterTheOthers() {
        var other = condition("Ready-In-Zone-b", "True", "SetupSucceeded", "ok", T0, 1);
        var result = StatusConditions.set(List.of(other), READY, T1, 3L).orElseThrow();
        assertThat(result).hasSize(2);
        assertThat(result.get(0)).isEqualTo(other);
        assertThat(result.get(1))
                .containsEntry("type", "Ready-In-Zone-a")
                .containsEntry("status", "True")
                .containsEntry("lastTransitionTime", T1.toString())
                .containsEntry("observedGeneration", 3L);
    }

    @Test
    void anEqualConditionNeedsNoWrite() {
        var current = condition("Ready-In-Zone-a", "True", "SetupSucceeded", READY.message(), T0, 3);
        assertThat(StatusConditions.set(List.of(current), READY, T1, 3L)).isEmpty();
    }

    @Test
    void aNewMessageWithTheSameStatusKeepsTheTransitionTime() {
        var current = condition("Ready-In-Zone-a", "False", "SetupFailed", "error 1", T0, 3);
        var result = StatusConditions.set(
                        List.of(current), DesiredCondition.isFalse("Ready-In-Zone-a", "SetupFailed", "error 2"), T1, 3L)
                .orElseThrow();
        assertThat(result.getFirst())
                .containsEntry("message", "error 2")
                .containsEntry("lastTransitionTime", T0.toString());
    }

    @Test
    void aStatusChangeMovesTheTransitionTime() {
        var current = condition("Ready-In-Zone-a", "False", "SetupFailed", "error", T0, 3);
        var result = StatusConditions.set(List.of(current), READY, T1, 3L).orElseThrow();
        assertThat(result.getFirst())
                .containsEntry("status", "True")
                .containsEntry("lastTransitionTime", T1.toString());
    }

    @Test
    void aNewGenerationIsRecordedEvenIfNothingElseChanged() {
        var current = condition("Ready-In-Zone-a", "True", "SetupSucceeded", READY.message(), T0, 3);
        var result = StatusConditions.set(List.of(current), READY, T1, 4L).orElseThrow();
        assertThat(result.getFirst())
                .containsEntry("observedGeneration", 4L)
                .containsEntry("lastTransitionTime", T0.toString());
    }

    @Test
    void removeDropsOnlyThatType() {
        var a = condition("Ready-In-Zone-a", "True", "SetupSucceeded", "ok", T0, 1);
        var b = condition("Ready-In-Zone-b", "True", "SetupSucceeded", "ok", T0, 1);
        assertThat(StatusConditions.remove(List.of(a, b), "Ready-In-Zone-a")).contains(List.of(b));
        assertThat(StatusConditions.remove(List.of(b), "Ready-In-Zone-a")).isEmpty();
    }
}
