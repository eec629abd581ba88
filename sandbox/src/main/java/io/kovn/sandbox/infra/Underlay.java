package io.kovn.sandbox.infra;

import io.kovn.runtime.net.Netns;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The emulated physical network: a Linux bridge in the root namespace that every emulated node's {@code eth0} hangs
 * off. The bridge itself has no address, so the underlay range exists only inside namespaces we create and no traffic
 * can leave the machine.
 *
 * <p>Every link it makes starts with {@code prefix}, so {@link Leftovers#cleanup} can find them.
 */
public final class Underlay implements AutoCloseable {
    /** Longest prefix that still leaves room for {@code v<index>} within 15 characters. */
    public static final int MAX_PREFIX = 11;

    private final String prefix;
    private final Ipv4Cidr cidr;
    /**
     * The IPv6 /64 network address with a trailing {@code ::} dropped to {@code :}, e.g. {@code fd00:afa:0:}; null when
     * IPv4 only.
     */
    private final String v6Network;

    private final Netns root = Netns.root();
    private final AtomicInteger nextHost = new AtomicInteger(2);
    private final List<String> hostLinks = new ArrayList<>();

    private Underlay(String prefix, Ipv4Cidr cidr, String v6Network) {
        this.prefix = prefix;
        this.cidr = cidr;
        this.v6Network = v6Network;
    }

    /**
     * Creates the bridge {@code <prefix>br}.
     *
     * @param prefix name prefix owned by the caller, e.g. {@code kovn-}
     * @param cidr IPv4 range for node addresses, e.g. {@code 172.30.0.0/24}
     */
    public static Underlay create(String prefix, String cidr) {
        return create(prefix, cidr, null);
    }

    /**
     * Creates the bridge {@code <prefix>br}; namespaces attached get an IPv6 address of {@code cidrV6} too (host n:
     * {@code <network>::<n>/64}) when it is not null.
     *
     * @param cidrV6 an IPv6 /64 such as {@code fd00:afa:0::/64}, or null
     */
    public static Underlay create(String prefix, String cidr, String cidrV6) {
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.isEmpty() || prefix.length() > MAX_PREFIX) {
            throw new IllegalArgumentException("prefix must have 1.." + MAX_PREFIX + " characters: " + prefix);
        }
        String v6 = null;
        if (cidrV6 != null) {
            if (!cidrV6.endsWith("::/64"))
                throw new IllegalArgumentException("the IPv6 underlay must be a /64 written <net>::/64: " + cidrV6);
            v6 = cidrV6.substring(0, cidrV6.length() - "::/64".length());
        }
        Underlay u = new Underlay(prefix, Ipv4Cidr.parse(cidr), v6);
        u.root.addBridge(u.bridge());
        u.root.linkUp(u.bridge());
        return u;
    }

    /**
     * Connects a namespace: a veth {@code <prefix>v<n>} on the bridge, its peer {@code ifName} in {@code ns} (up, no
     * address: the caller decides where the address goes).
     *
     * @return the address allocated to the namespace, in CIDR form
     */
    public synchronized Attachment attach(Netns ns, String ifName) {
        return attach(ns, ifName, nextHost.getAndIncrement());
    }

    /**
     * As {@link #attach(Netns, String)}, with the range's last host address (e.g. {@code .254} of a {@code /24}): for
     * the sandbox's outside host, the nodes' default gateway, whose address must not depend on how many nodes there
     * are.
     */
    /** The IPv6 address {@link #attachLast} gives, on a dual-stack underlay. */
    public Optional<String> lastAddressV6() {
        return Optional.ofNullable(v6Network).map(n -> n + "::" + Integer.toHexString(cidr.lastHost()));
    }

    public synchronized Attachment attachLast(Netns ns, String ifName) {
        return attach(ns, ifName, cidr.lastHost());
    }

    private Attachment attach(Netns ns, String ifName, int host) {
        String hostLink = prefix + "v" + host;
        root.addVethPair(hostLink, ifName, ns);
        hostLinks.add(hostLink);
        root.setMaster(hostLink, bridge());
        root.linkUp(hostLink);
        ns.linkUp(ifName);
        return new Attachment(
                hostLink,
                ifName,
                cidr.host(host) + "/" + cidr.prefixLength(),
                v6Network == null ? null : v6Network + "::" + Integer.toHexString(host) + "/64");
    }

    /**
     * A namespace's connection to the underlay.
     *
     * @param hostLink the root-side veth on the bridge
     * @param ifName the interface inside the namespace
     * @param addressCidr the namespace's underlay address with prefix length
     * @param addressV6Cidr its IPv6 address with prefix length, null on an IPv4-only underlay
     */
    public record Attachment(String hostLink, String ifName, String addressCidr, String addressV6Cidr) {
        /** The IPv6 address without prefix length, if the underlay has IPv6. */
        public Optional<String> addressV6() {
            return Optional.ofNullable(addressV6Cidr).map(a -> a.substring(0, a.indexOf('/')));
        }

        /** The address without prefix length. */
        public String address() {
            return addressCidr.substring(0, addressCidr.indexOf('/'));
        }
    }

    public String prefix() {
        return prefix;
    }

    public String bridge() {
        return prefix + "br";
    }

    /** The underlay range, e.g. {@code 172.30.0.0/24}. */
    public String cidr() {
        return cidr.toString();
    }

    /** Removes the bridge and every veth it made (idempotent). */
    @Override
    public synchronized void close() {
        for (String link : hostLinks) {
            root.deleteLink(link);
        }
        hostLinks.clear();
        root.deleteLink(bridge());
    }
}
