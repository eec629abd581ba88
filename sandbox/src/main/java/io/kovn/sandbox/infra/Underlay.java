package io.kovn.sandbox.infra;

import io.kovn.runtime.net.Netns;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The emulated physical network: a Linux bridge in the root namespace that every emulated node's
 * {@code eth0} hangs off. The bridge itself has no address, so the underlay range exists only
 * inside namespaces we create and no traffic can leave the machine.
 *
 * <p>Every link it makes starts with {@code prefix}, so {@link Leftovers#cleanup} can find them.
 */
public final class Underlay implements AutoCloseable {
    /** Longest prefix that still leaves room for {@code v<index>} within 15 characters. */
    public static final int MAX_PREFIX = 11;

    private final String prefix;
    private final Ipv4Cidr cidr;
    private final Netns root = Netns.root();
    private final AtomicInteger nextHost = new AtomicInteger(2);
    private final List<String> hostLinks = new ArrayList<>();

    private Underlay(String prefix, Ipv4Cidr cidr) {
        this.prefix = prefix;
        this.cidr = cidr;
    }

    /**
     * Creates the bridge {@code <prefix>br}.
     *
     * @param prefix name prefix owned by the caller, e.g. {@code kovn-}
     * @param cidr IPv4 range for node addresses, e.g. {@code 172.30.0.0/24}
     */
    public static Underlay create(String prefix, String cidr) {
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.isEmpty() || prefix.length() > MAX_PREFIX) {
            throw new IllegalArgumentException("prefix must have 1.." + MAX_PREFIX + " characters: " + prefix);
        }
        Underlay u = new Underlay(prefix, Ipv4Cidr.parse(cidr));
        u.root.addBridge(u.bridge());
        u.root.linkUp(u.bridge());
        return u;
    }

    /**
     * Connects a namespace: a veth {@code <prefix>v<n>} on the bridge, its peer {@code ifName} in
     * {@code ns} (up, no address: the caller decides where the address goes).
     *
     * @return the address allocated to the namespace, in CIDR form
     */
    public synchronized Attachment attach(Netns ns, String ifName) {
        return attach(ns, ifName, nextHost.getAndIncrement());
    }

    /**
     * As {@link #attach(Netns, String)}, with the range's last host address (e.g. {@code .254} of a
     * {@code /24}): for the sandbox's outside host, the nodes' default gateway, whose address must not
     * depend on how many nodes there are.
     */
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
        return new Attachment(hostLink, ifName, cidr.host(host) + "/" + cidr.prefixLength());
    }

    /**
     * A namespace's connection to the underlay.
     *
     * @param hostLink the root-side veth on the bridge
     * @param ifName the interface inside the namespace
     * @param addressCidr the namespace's underlay address with prefix length
     */
    public record Attachment(String hostLink, String ifName, String addressCidr) {
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
