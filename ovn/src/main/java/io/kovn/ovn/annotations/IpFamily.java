package io.kovn.ovn.annotations;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * An IP address family, named as in the reference's annotations ({@code ipv4} / {@code ipv6}), in external_ids
 * ({@code v4} / {@code v6}) and in matches ({@code ip4} / {@code ip6}).
 */
public enum IpFamily {
    IPV4("ipv4", 32, "v4", "ip4"),
    IPV6("ipv6", 128, "v6", "ip6");

    private final String key;
    private final int bits;
    private final String idValue;
    private final String matchField;

    IpFamily(String key, int bits, String idValue, String matchField) {
        this.key = key;
        this.bits = bits;
        this.idValue = idValue;
        this.matchField = matchField;
    }

    /** The JSON key used by {@code node-transit-switch-port-ifaddr}: {@code ipv4} or {@code ipv6}. */
    public String key() {
        return key;
    }

    /** Address width in bits: 32 or 128. */
    public int bits() {
        return bits;
    }

    /** {@code v4} or {@code v6}, the value of the {@code ip-family} external id. */
    public String idValue() {
        return idValue;
    }

    /** {@code ip4} or {@code ip6}, the match field prefix. */
    public String matchField() {
        return matchField;
    }

    /** The family of an address. */
    public static IpFamily of(InetAddress address) {
        return address instanceof Inet4Address ? IPV4 : IPV6;
    }

    /** The family of an address or CIDR in text form, as OVN reads it: IPv6 if it has a colon. */
    public static IpFamily of(String addressOrCidr) {
        return addressOrCidr.indexOf(':') >= 0 ? IPV6 : IPV4;
    }
}
