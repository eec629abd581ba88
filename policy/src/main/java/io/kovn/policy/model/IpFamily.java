package io.kovn.policy.model;

/** An IP family: {@code v4} / {@code v6} in external_ids, {@code ip4} / {@code ip6} in matches. */
public enum IpFamily {
    V4("v4", "ip4"),
    V6("v6", "ip6");

    private final String idValue;
    private final String matchField;

    IpFamily(String idValue, String matchField) {
        this.idValue = idValue;
        this.matchField = matchField;
    }

    /** {@code v4} or {@code v6}, the value of the {@code ip-family} external id. */
    public String idValue() {
        return idValue;
    }

    /** {@code ip4} or {@code ip6}, the match field prefix. */
    public String matchField() {
        return matchField;
    }

    /** The family of an address or CIDR in text form. */
    public static IpFamily of(String addressOrCidr) {
        return addressOrCidr.indexOf(':') >= 0 ? V6 : V4;
    }
}
