package io.kovn.controller.events;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kovn.k8s.events.EventRecorder;

/**
 * Where controllers report Kubernetes Events. Recording never fails a reconcile. Implemented over
 * {@link io.kovn.k8s.events.EventRecorder} by {@link #of}; tests may collect events in memory.
 */
@FunctionalInterface
public interface EventSink {

    /** Records an event about {@code involved}. */
    void record(HasMetadata involved, boolean warning, String reason, String message);

    /** A Warning event. */
    default void warning(HasMetadata involved, String reason, String message) {
        record(involved, true, reason, message);
    }

    /** A Normal event. */
    default void normal(HasMetadata involved, String reason, String message) {
        record(involved, false, reason, message);
    }

    /** Events written through a recorder. */
    static EventSink of(EventRecorder recorder) {
        return (involved, warning, reason, message) -> {
            if (warning) {
                recorder.warning(involved, reason, message);
            } else {
                recorder.normal(involved, reason, message);
            }
        };
    }
}
