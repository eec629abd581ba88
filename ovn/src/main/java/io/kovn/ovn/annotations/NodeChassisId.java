package io.kovn.ovn.annotations;

/**
 * {@code k8s.ovn.org/node-chassis-id}: the OVS {@code system-id} of the node's chassis (a plain string, usually a
 * UUID), published by the node agent.
 *
 * @param value the system-id
 */
public record NodeChassisId(String value) {
    private static final String KEY = OvnAnnotations.NODE_CHASSIS_ID;

    public NodeChassisId {
        if (value == null) {
            throw new AnnotationFormatException(KEY, "annotation is missing");
        }
        if (value.isEmpty()) {
            throw new AnnotationFormatException(KEY, "annotation is empty");
        }
        // It becomes an SB Chassis name and a tunnel interface suffix: no spaces or control characters.
        if (!value.matches("[\\x21-\\x7e]{1,253}")) {
            throw new AnnotationFormatException(KEY, "not a valid system-id: \"" + value + "\"");
        }
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException when absent, empty or containing spaces/control characters
     */
    public static NodeChassisId parse(String value) {
        return new NodeChassisId(value);
    }

    /** The annotation value: the system-id itself. */
    public String format() {
        return value;
    }
}
