package io.kovn.controller.network;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.annotations.PodRoute;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code k8s.ovn.org/pod-networks} of a pod whose namespace has a primary user-defined network, as the reference
 * writes it: the default network's entry demoted to {@value #ROLE_INFRASTRUCTURE} (no gateway, routes to the cluster
 * and its join subnet only: kubelet probes and the host keep reaching the pod there), and the network's entry, role
 * {@code primary}, under the key of the network's attachment ({@code <namespace>/<name>} of the UDN or CUDN), with the
 * pod's gateway on that network and routes to the network's subnets, the service CIDRs and the network's join subnet.
 * Pure. (The zone's IPAM and the CNI plugin take it up with pods on networks: issue 31.)
 */
public final class PrimaryNetworkAnnotation {
    /** The default network's role for a pod of a primary user-defined network. */
    public static final String ROLE_INFRASTRUCTURE = "infrastructure-locked";
    /** The default network's join subnets, routed through the default network for the host's replies. */
    private static final List<IpPrefix> DEFAULT_JOIN =
            Network.defaultNetwork(List.of()).joinSubnets();

    private PrimaryNetworkAnnotation() {}

    /**
     * @param defaultAddresses the pod's addresses on the default network, in its node subnets
     * @param clusterSubnets the default network's CIDRs
     * @param attachment the network's key in the annotation: {@code <namespace>/<UDN or CUDN name>}
     * @param network the pod's primary network
     * @param addresses the pod's addresses on it (Layer3: in the node's subnet of it; Layer2: in its CIDRs)
     * @param serviceSubnets the cluster's service CIDRs
     */
    public static PodNetworks of(
            List<IpPrefix> defaultAddresses,
            List<IpPrefix> clusterSubnets,
            String attachment,
            Network network,
            List<IpPrefix> addresses,
            List<IpPrefix> serviceSubnets) {
        return of(defaultAddresses, clusterSubnets, attachment, network, addresses, serviceSubnets, List.of());
    }

    /**
     * As above, with routes through the default network to the node's own addresses: kovn's management port sends the
     * host's packets (kubelet probes) from the node's address, and the pod must answer through eth0, where they came
     * in, not through its network.
     *
     * @param nodeIps the pod's node's addresses
     */
    public static PodNetworks of(
            List<IpPrefix> defaultAddresses,
            List<IpPrefix> clusterSubnets,
            String attachment,
            Network network,
            List<IpPrefix> addresses,
            List<IpPrefix> serviceSubnets,
            List<InetAddress> nodeIps) {
        Map<String, PodNetwork> entries = new LinkedHashMap<>();
        List<InetAddress> defaultGateways = gateways(defaultAddresses);
        List<PodRoute> infra = new ArrayList<>();
        routes(infra, clusterSubnets, defaultGateways);
        routes(infra, DEFAULT_JOIN, defaultGateways);
        routes(
                infra,
                nodeIps.stream()
                        .map(ip -> new IpPrefix(ip, ip.getAddress().length * 8))
                        .toList(),
                defaultGateways);
        entries.put(
                OvnAnnotations.DEFAULT_NETWORK,
                new PodNetwork(
                        defaultAddresses,
                        MacAddresses.fromIp(defaultAddresses.getFirst().address()),
                        List.of(),
                        infra,
                        ROLE_INFRASTRUCTURE));

        List<InetAddress> gateways = gateways(addresses);
        List<PodRoute> primary = new ArrayList<>();
        if (network.topology() == Network.Topology.LAYER3) routes(primary, network.cidrs(), gateways);
        routes(primary, serviceSubnets, gateways);
        routes(primary, network.joinSubnets(), gateways);
        entries.put(
                attachment,
                new PodNetwork(
                        addresses,
                        MacAddresses.fromIp(addresses.getFirst().address()),
                        gateways,
                        primary,
                        PodNetwork.ROLE_PRIMARY));
        return new PodNetworks(entries);
    }

    /** The first address of each address's subnet: the gateway of a node subnet, or of a Layer2 CIDR. */
    private static List<InetAddress> gateways(List<IpPrefix> addresses) {
        return addresses.stream().map(a -> a.network().addressAt(1)).toList();
    }

    /** A route per destination via the gateway of its family (destinations of a family the pod lacks are left out). */
    private static void routes(List<PodRoute> out, List<IpPrefix> destinations, List<InetAddress> gateways) {
        for (IpPrefix d : destinations) {
            gateways.stream()
                    .filter(g -> IpFamily.of(g) == d.family())
                    .findFirst()
                    .ifPresent(g -> out.add(new PodRoute(d, g)));
        }
    }
}
