package io.kovn.ovn.ids;

/**
 * Extra external-id keys an {@link ObjectId} may carry after its name, spelled as the reference implementation spells
 * them (so {@code gress-index="5"} queries work verbatim).
 */
public enum IdKey {
    DIRECTION("direction"),
    GRESS_INDEX("gress-index"),
    IP_FAMILY("ip-family"),
    PORT_POLICY_PROTOCOL("port-policy-protocol"),
    IP_BLOCK_INDEX("ip-block-index"),
    TYPE("type"),
    PRIORITY("priority"),
    NETWORK("network"),
    IP("ip"),
    RULE_INDEX("rule-index");

    private final String key;

    IdKey(String key) {
        this.key = key;
    }

    /** The external-id key. */
    public String key() {
        return key;
    }

    @Override
    public String toString() {
        return key;
    }
}
