package io.kovn.ovsdb.ops;

/** A mutation's mutator (RFC 7047 {@code <mutator>}). */
public enum Mutator {
    ADD("+="),
    SUBTRACT("-="),
    MULTIPLY("*="),
    DIVIDE("/="),
    MODULO("%="),
    INSERT("insert"),
    DELETE("delete");

    private final String json;

    Mutator(String json) {
        this.json = json;
    }

    /** The mutator as written on the wire. */
    public String json() {
        return json;
    }
}
