package io.kovn.sandbox.infra;

/**
 * An IPv4 network in CIDR form, for handing out emulated node addresses.
 *
 * @param network the network address as an unsigned 32-bit value
 * @param prefixLength prefix length
 */
record Ipv4Cidr(long network, int prefixLength) {
    Ipv4Cidr {
        if (prefixLength < 8 || prefixLength > 30) {
            throw new IllegalArgumentException("prefix length must be 8..30: " + prefixLength);
        }
    }

    static Ipv4Cidr parse(String cidr) {
        String[] parts = cidr.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("not an IPv4 CIDR: " + cidr);
        }
        String[] o = parts[0].split("\\.");
        if (o.length != 4) {
            throw new IllegalArgumentException("not an IPv4 CIDR: " + cidr);
        }
        long v = 0;
        for (String s : o) {
            int b = Integer.parseInt(s);
            if (b < 0 || b > 255) {
                throw new IllegalArgumentException("not an IPv4 CIDR: " + cidr);
            }
            v = (v << 8) | b;
        }
        int len = Integer.parseInt(parts[1]);
        long mask = len == 0 ? 0 : (0xffffffffL << (32 - len)) & 0xffffffffL;
        return new Ipv4Cidr(v & mask, len);
    }

    /** The n-th address of the network; n must leave room for the broadcast address. */
    String host(int n) {
        long size = 1L << (32 - prefixLength);
        if (n < 1 || n >= size - 1) {
            throw new IllegalArgumentException("no host " + n + " in " + this);
        }
        return format(network + n);
    }

    /** The index of the network's last host address (the one before broadcast). */
    int lastHost() {
        return (int) ((1L << (32 - prefixLength)) - 2);
    }

    private static String format(long v) {
        return ((v >> 24) & 255) + "." + ((v >> 16) & 255) + "." + ((v >> 8) & 255) + "." + (v & 255);
    }

    @Override
    public String toString() {
        return format(network) + "/" + prefixLength;
    }
}
