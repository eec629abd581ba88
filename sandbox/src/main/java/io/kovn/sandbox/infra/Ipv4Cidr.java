package io.kovn.sandbox.infra;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;

/**
 * An IPv4 network in CIDR form, for handing out emulated node addresses.
 *
 * @param prefix the network (host bits cleared)
 */
record Ipv4Cidr(IpPrefix prefix) {
    Ipv4Cidr {
        if (prefix.family() != IpFamily.IPV4) {
            throw new IllegalArgumentException("not an IPv4 CIDR: " + prefix);
        }
        if (prefix.length() < 8 || prefix.length() > 30) {
            throw new IllegalArgumentException("prefix length must be 8..30: " + prefix.length());
        }
        prefix = prefix.network();
    }

    static Ipv4Cidr parse(String cidr) {
        return new Ipv4Cidr(IpPrefix.parse(cidr));
    }

    int prefixLength() {
        return prefix.length();
    }

    /** The n-th address of the network; n must leave room for the broadcast address. */
    String host(int n) {
        if (n < 1 || n > lastHost()) {
            throw new IllegalArgumentException("no host " + n + " in " + this);
        }
        return IpLiterals.format(prefix.addressAt(n));
    }

    /** The index of the network's last host address (the one before broadcast). */
    int lastHost() {
        return (int) ((1L << (32 - prefix.length())) - 2);
    }

    @Override
    public String toString() {
        return prefix.toString();
    }
}
