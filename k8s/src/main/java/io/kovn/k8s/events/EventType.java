package io.kovn.k8s.events;

/** The {@code type} of a core/v1 Event. */
public enum EventType {
    Normal,
    Warning
}
