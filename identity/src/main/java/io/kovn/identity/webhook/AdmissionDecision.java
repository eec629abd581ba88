package io.kovn.identity.webhook;

/** The webhook's answer to one admission request. */
public sealed interface AdmissionDecision {
    /** The change may proceed. */
    record Allow() implements AdmissionDecision {}

    /** The change is refused; the message reaches the requester through the API server. */
    record Deny(String message) implements AdmissionDecision {}

    /** The shared allow value. */
    AdmissionDecision ALLOW = new Allow();

    /** A denial with a formatted message. */
    static AdmissionDecision deny(String format, Object... args) {
        return new Deny(String.format(format, args));
    }
}
