package io.kovn.k8s.events;

/** What {@link ConditionWriter} did. */
public sealed interface ConditionWrite {

    /** The status was patched. */
    record Changed(String resourceVersion) implements ConditionWrite {}

    /** The object already held the condition as desired: no write. */
    record Unchanged() implements ConditionWrite {}

    /** The object does not exist (any more). */
    record NotFound() implements ConditionWrite {}
}
