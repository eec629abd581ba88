package io.kovn.ovsdb.ops;

/** A condition's comparison function (RFC 7047 {@code <function>}). */
public enum Function {
    LT("<"),
    LE("<="),
    EQ("=="),
    NE("!="),
    GE(">="),
    GT(">"),
    INCLUDES("includes"),
    EXCLUDES("excludes");

    private final String json;

    Function(String json) {
        this.json = json;
    }

    /** The function as written on the wire. */
    public String json() {
        return json;
    }

    /** Parses the wire form. */
    public static Function fromJson(String s) {
        for (Function f : values()) {
            if (f.json.equals(s)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown condition function: " + s);
    }
}
