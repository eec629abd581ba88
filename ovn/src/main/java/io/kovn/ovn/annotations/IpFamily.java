package io.kovn.ovn.annotations;

import java.net.Inet4Address;
import java.net.InetAddress;

/** An IP address family, named as in the reference's annotations ({@code ipv4} / {@code ipv6}). */
public enum IpFamily {
    IPV4("ipv4", 32),
    IPV6("ipv6", 128);

    private final String key;
    private final int bits;

    IpFamily(String key, int bits) {
        this.key = key;
        this.bits = bits;
    }

    /** The JSON key used by {@code node-transit-switch-port-ifaddr}: {@code ipv4} or {@code ipv6}. */
    public String key() {
        return key;
    }

    /** Address width in bits: 32 or 128. */
    public int bits() {
        return bits;
    }

    /** The family of an address. */
    public static IpFamily of(InetAddress address) {
        return address instanceof Inet4Address ? IPV4 : IPV6;
    }
}
