package io.kovn.node.cni;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The result of an ADD in the CNI specification's terms, independent of the wire version: the server encodes it for the
 * cniVersion the runtime asked for (see {@link CniResultCodec}).
 *
 * <p>Indexes in {@link IpConfig#interfaceIndex()} refer to this result's own {@link #interfaces()} list; when the
 * result is chained after a {@code prevResult} the server shifts them.
 */
public record CniResult(List<Interface> interfaces, List<IpConfig> ips, List<Route> routes, Dns dns) {
    public CniResult {
        interfaces = List.copyOf(interfaces);
        ips = List.copyOf(ips);
        routes = List.copyOf(routes);
        dns = dns == null ? Dns.EMPTY : dns;
    }

    /** A result with nothing in it. */
    public static final CniResult EMPTY = new CniResult(List.of(), List.of(), List.of(), Dns.EMPTY);

    /**
     * An interface the plugin created or configured.
     *
     * @param mac the MAC address, or "" where L2 addresses have no meaning
     * @param sandbox the network namespace path for container interfaces, "" for host interfaces
     * @param mtu the MTU, or 0 when not reported (only encoded for cniVersion 1.1.0)
     */
    public record Interface(String name, String mac, String sandbox, int mtu) {
        public Interface {
            Objects.requireNonNull(name, "name");
            mac = mac == null ? "" : mac;
            sandbox = sandbox == null ? "" : sandbox;
        }
    }

    /**
     * An address assigned to an interface.
     *
     * @param address address and prefix in CIDR form, e.g. {@code 10.244.1.3/24}
     * @param gateway the default gateway for this subnet, or "" for none
     * @param interfaceIndex index into {@link #interfaces()}, or -1 when not tied to an interface
     */
    public record IpConfig(String address, String gateway, int interfaceIndex) {
        public IpConfig {
            Objects.requireNonNull(address, "address");
            gateway = gateway == null ? "" : gateway;
        }

        /** "4" or "6", as cniVersion 0.3.x/0.4.0 results spell the family. */
        public String family() {
            return address.contains(":") ? "6" : "4";
        }
    }

    /**
     * A route in the container.
     *
     * @param dst destination in CIDR form
     * @param gw the next hop, or "" for the gateway of the matching {@link IpConfig}
     */
    public record Route(String dst, String gw) {
        public Route {
            Objects.requireNonNull(dst, "dst");
            gw = gw == null ? "" : gw;
        }
    }

    /** DNS settings for the container; empty values are not encoded. */
    public record Dns(List<String> nameservers, String domain, List<String> search, List<String> options) {
        /** No DNS settings. */
        public static final Dns EMPTY = new Dns(List.of(), "", List.of(), List.of());

        public Dns {
            nameservers = List.copyOf(nameservers);
            domain = domain == null ? "" : domain;
            search = List.copyOf(search);
            options = List.copyOf(options);
        }

        /** Whether nothing is set. */
        public boolean isEmpty() {
            return nameservers.isEmpty() && domain.isEmpty() && search.isEmpty() && options.isEmpty();
        }
    }

    /**
     * This result appended to {@code previous} (CNI chaining: a plugin that receives a prevResult outputs it with its
     * own additions): interfaces, ips and routes are concatenated, our ips' interface indexes shifted past the previous
     * interfaces, and our DNS wins when set.
     */
    public CniResult after(CniResult previous) {
        int shift = previous.interfaces.size();
        List<IpConfig> shifted = ips.stream()
                .map(ip -> ip.interfaceIndex() < 0
                        ? ip
                        : new IpConfig(ip.address(), ip.gateway(), ip.interfaceIndex() + shift))
                .toList();
        return new CniResult(
                concat(previous.interfaces, interfaces),
                concat(previous.ips, shifted),
                concat(previous.routes, routes),
                dns.isEmpty() ? previous.dns : dns);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
