package io.kovn.node.gateway;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.annotations.NodePrimaryIfaddr;
import io.kovn.ovn.topology.TopologyNames;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The node's external bridge as the agent found it: the OVS bridge holding the node IP, its pinned MAC, the node IPs on
 * it and the default gateways (next hops).
 *
 * @param bridge the bridge (in the sandbox {@code br-phy})
 * @param mac its MAC, pinned with {@code other_config:hwaddr}
 * @param ips node IPs with prefix length, one per family, IPv4 first
 * @param nextHops default gateways through the bridge, one per family (may be empty)
 */
public record GatewayBridge(String bridge, String mac, List<IpPrefix> ips, List<InetAddress> nextHops) {
    public GatewayBridge {
        Objects.requireNonNull(bridge, "bridge");
        if (!MacAddresses.isValid(mac)) {
            throw new IllegalArgumentException("not a MAC address: " + mac);
        }
        ips = List.copyOf(ips);
        nextHops = List.copyOf(nextHops);
        if (ips.isEmpty()) {
            throw new IllegalArgumentException("bridge " + bridge + " holds no node IP");
        }
    }

    /** The {@code k8s.ovn.org/l3-gateway-config} of this node (shared mode, NodePorts on). */
    public L3GatewayConfig l3GatewayConfig(String node) {
        return L3GatewayConfig.shared(bridge, node, mac, ips, nextHops);
    }

    /** The {@code k8s.ovn.org/node-primary-ifaddr} of this node. */
    public NodePrimaryIfaddr primaryIfaddr() {
        return new NodePrimaryIfaddr(
                ips.stream().filter(p -> p.family() == IpFamily.IPV4).findFirst(),
                ips.stream().filter(p -> p.family() == IpFamily.IPV6).findFirst());
    }

    /** The {@code ovn-bridge-mappings} that ties the external switches' localnet ports to this bridge. */
    public String bridgeMappings() {
        return TopologyNames.PHYSNET + ":" + bridge;
    }

    /**
     * The link holding {@code ip} and its address with prefix length, from {@code ip -o addr show} output (pure), e.g.
     * {@code 5: br-phy inet 172.30.0.2/24 scope global br-phy ...}.
     */
    static Optional<Holder> holderOf(String ipAddrOutput, InetAddress ip) {
        for (String line : ipAddrOutput.split("\n")) {
            String[] f = line.strip().split("\\s+");
            for (int i = 0; i + 1 < f.length; i++) {
                if ((f[i].equals("inet") || f[i].equals("inet6")) && f.length > 1) {
                    IpPrefix p = IpPrefix.parse(f[i + 1]);
                    if (p.address().equals(ip)) {
                        String link = f[1].endsWith(":") ? f[1].substring(0, f[1].length() - 1) : f[1];
                        int at = link.indexOf('@');
                        return Optional.of(new Holder(at >= 0 ? link.substring(0, at) : link, p));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The global addresses of {@code link} (not link-local), from {@code ip -o addr show} output, in order (pure): the
     * bridge's IPv6 address beside the IPv4 node IP, on a dual-stack node.
     */
    static List<IpPrefix> globalAddressesOf(String ipAddrOutput, String link) {
        List<IpPrefix> out = new ArrayList<>();
        for (String line : ipAddrOutput.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 4 || !(f[1].equals(link) || f[1].equals(link + ":")) || !line.contains(" scope global"))
                continue;
            for (int i = 0; i + 1 < f.length; i++) {
                if (f[i].equals("inet") || f[i].equals("inet6")) out.add(IpPrefix.parse(f[i + 1]));
            }
        }
        return List.copyOf(out);
    }

    /** A link and the address it holds. */
    record Holder(String link, IpPrefix address) {}

    /**
     * The default gateways through {@code link}, from {@code ip route show default} output of either family (pure),
     * e.g. {@code default via 172.30.0.254 dev br-phy}.
     */
    static List<InetAddress> defaultGateways(String ipRouteOutput, String link) {
        List<InetAddress> out = new ArrayList<>();
        for (String line : ipRouteOutput.split("\n")) {
            String[] f = line.strip().split("\\s+");
            String via = null;
            String dev = null;
            for (int i = 0; i + 1 < f.length; i++) {
                if (f[i].equals("via")) via = f[i + 1];
                if (f[i].equals("dev")) dev = f[i + 1];
            }
            if (f.length > 0 && f[0].equals("default") && via != null && link.equals(dev)) {
                InetAddress hop = IpLiterals.parse(via);
                if (out.stream().noneMatch(h -> IpFamily.of(h) == IpFamily.of(hop))) {
                    out.add(hop);
                }
            }
        }
        return List.copyOf(out);
    }
}
