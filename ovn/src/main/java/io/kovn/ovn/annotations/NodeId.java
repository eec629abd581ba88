package io.kovn.ovn.annotations;

/**
 * {@code k8s.ovn.org/node-id}: the node's id, a decimal string such as {@code "2"}. Ids 0 and 1 are reserved; the
 * cluster manager hands out {@value #MIN}..{@value #MAX}.
 *
 * @param value the id
 */
public record NodeId(int value) {
    /** The smallest id handed out (0 and 1 are reserved). */
    public static final int MIN = 2;
    /** The largest id handed out. */
    public static final int MAX = 5000;

    private static final String KEY = OvnAnnotations.NODE_ID;

    public NodeId {
        if (value < MIN || value > MAX) {
            throw new AnnotationFormatException(KEY, "node id " + value + " outside " + MIN + ".." + MAX);
        }
    }

    /**
     * Parses the annotation value.
     *
     * @throws AnnotationFormatException when absent, not a plain decimal, or out of range
     */
    public static NodeId parse(String value) {
        if (value == null) {
            throw new AnnotationFormatException(KEY, "annotation is missing");
        }
        if (!value.matches("[1-9][0-9]{0,8}|0")) {
            throw new AnnotationFormatException(KEY, "not a decimal node id: \"" + value + "\"");
        }
        return new NodeId(Integer.parseInt(value));
    }

    /** The annotation value: the decimal id. */
    public String format() {
        return Integer.toString(value);
    }
}
