package io.kovn.node;

import io.kovn.node.ovs.ConfDbOps;
import io.kovn.node.ovs.OvsConfDb;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.topology.TopologyNames;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.runtime.net.Netns;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The node's management port: the OVS internal port {@value TopologyNames#MANAGEMENT_INTERFACE} on br-int, bound to the
 * logical switch port {@code k8s-<node>}, through which the node's host network (and its hostNetwork pods) and the
 * overlay reach each other.
 *
 * <p>It carries the node subnet's second address (the first is the router's) with the MAC {@code 0a:58:} + its IPv4
 * bytes, and the node routes the cluster subnets through the router ({@code .1}) on it. Every step is idempotent (an
 * existing port is kept, {@code replace}), so an agent restart converges to the same wiring.
 *
 * @param node the node name
 * @param subnets the node subnets (from {@code k8s.ovn.org/node-subnets}), one per family
 * @param clusterSubnets the cluster's pod networks, routed via the node subnet's gateway
 * @param mtu the interface MTU (the pods' MTU)
 * @param nodeIps the node's own addresses (at most one per family used): the source of host traffic toward pods, so
 *     that pods (and their policies) see the node IP, and unconnected UDP replies to a pod that called the node IP come
 *     from the address it called
 */
public record ManagementPort(
        String node, List<IpPrefix> subnets, List<IpPrefix> clusterSubnets, int mtu, List<InetAddress> nodeIps) {
    public ManagementPort {
        Objects.requireNonNull(node, "node");
        subnets = List.copyOf(subnets);
        clusterSubnets = List.copyOf(clusterSubnets);
        nodeIps = List.copyOf(nodeIps);
        if (subnets.isEmpty()) {
            throw new IllegalArgumentException("node " + node + " has no subnet");
        }
    }

    /** The interface name, {@value TopologyNames#MANAGEMENT_INTERFACE}. */
    public String interfaceName() {
        return TopologyNames.MANAGEMENT_INTERFACE;
    }

    /** The port's addresses: each subnet's second address with the subnet's length. */
    public List<IpPrefix> addresses() {
        return subnets.stream()
                .map(s -> new IpPrefix(ZoneTopology.managementAddress(s), s.length()))
                .toList();
    }

    /** The port's MAC, derived from its first address as the zone's logical switch port has it. */
    public String mac() {
        return MacAddresses.fromIp(addresses().getFirst().address());
    }

    /** The OVS interface's external_ids: bound to the logical switch port {@code k8s-<node>} (pure). */
    public Map<String, String> externalIds() {
        return Map.of("iface-id", TopologyNames.managementPort(node));
    }

    /** The operations that create (or keep, or repair) the internal port on {@code bridge}. */
    public List<Operation> operations(ConfDbOps ops, String bridge) {
        return ops.port(bridge, interfaceName(), "internal", mac(), externalIds());
    }

    /** The {@code ip -batch} lines that address the port and route the cluster subnets through it (pure). */
    public List<String> ipLines() {
        String iface = interfaceName();
        List<String> lines = new ArrayList<>();
        lines.add("link set dev " + iface + " address " + mac() + " mtu " + mtu + " up");
        for (IpPrefix a : addresses()) {
            lines.add("addr replace " + a + " dev " + iface + (a.family() == IpFamily.IPV6 ? " nodad" : ""));
        }
        for (IpPrefix s : subnets) {
            // The kernel's own connected route, with the node IP as source instead of the port's. An IPv6
            // route is replaced only at its metric: the kernel's is 256 (else a second route, behind it).
            sourceFor(s.family())
                    .ifPresent(src ->
                            lines.add("route replace " + s.network() + " dev " + iface + " proto kernel scope link src "
                                    + IpLiterals.format(src) + (s.family() == IpFamily.IPV6 ? " metric 256" : "")));
        }
        for (IpPrefix cluster : clusterSubnets) {
            subnets.stream()
                    .filter(s -> s.family() == cluster.family())
                    .findFirst()
                    .ifPresent(s -> {
                        InetAddress gateway = s.addressAt(1);
                        lines.add("route replace " + cluster + " via " + IpLiterals.format(gateway) + " dev " + iface
                                + sourceFor(cluster.family())
                                        .map(src -> " src " + IpLiterals.format(src))
                                        .orElse(""));
                    });
        }
        return lines;
    }

    private Optional<InetAddress> sourceFor(IpFamily family) {
        return nodeIps.stream().filter(ip -> IpFamily.of(ip) == family).findFirst();
    }

    /**
     * The sysctl settings the node needs: forwarding on, so the host may route between pods and its links, and ARP
     * requests sourced from the port's address.
     */
    public List<String> sysctls() {
        List<String> out = new ArrayList<>();
        if (subnets.stream().anyMatch(s -> s.family() == IpFamily.IPV4)) {
            out.add("net.ipv4.ip_forward=1");
            // ARP from the port's own address: the router answers ARP only from its subnet.
            out.add("net.ipv4.conf." + interfaceName() + ".arp_announce=2");
        }
        if (subnets.stream().anyMatch(s -> s.family() == IpFamily.IPV6)) {
            out.add("net.ipv6.conf.all.forwarding=1");
        }
        return out;
    }

    /**
     * Creates or repairs the port: the OVS internal port, then (once ovs-vswitchd made the device) its MAC, MTU,
     * addresses and routes, checksum offload off (the userspace datapath needs it for TCP), and forwarding.
     */
    public void apply(OvsConfDb db, String bridge, Netns nodeNetns) {
        db.transactAndWait(operations(db.ops(), bridge));
        if (!nodeNetns.linkExists(interfaceName())) {
            // ovs-vswitchd makes the device in its own namespace: it must be the agent's.
            throw new IllegalStateException(interfaceName() + " is not in " + nodeNetns
                    + " (does ovs-vswitchd run in that network namespace?)");
        }
        nodeNetns.ipBatch(ipLines());
        nodeNetns.disableTxChecksum(interfaceName());
        for (String s : sysctls()) {
            nodeNetns.exec("sysctl", "-q", "-w", s);
        }
    }
}
