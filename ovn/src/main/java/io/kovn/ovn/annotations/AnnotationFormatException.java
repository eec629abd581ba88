package io.kovn.ovn.annotations;

/**
 * An annotation value that does not have the documented format. The message names the annotation and the precise
 * reason, so it can be shown to an operator unchanged (e.g. in an Event).
 */
public final class AnnotationFormatException extends IllegalArgumentException {
    private final String annotation;
    private final String reason;

    public AnnotationFormatException(String annotation, String reason) {
        super(annotation + ": " + reason);
        this.annotation = annotation;
        this.reason = reason;
    }

    /** The annotation key, e.g. {@code k8s.ovn.org/node-subnets}. */
    public String annotation() {
        return annotation;
    }

    /** What is wrong with the value, without the annotation key. */
    public String reason() {
        return reason;
    }
}
