package io.kovn.node.plumbing;

import io.kovn.runtime.net.Netns;
import java.util.List;
import java.util.Objects;

/**
 * Everything needed to wire one pod interface: who the pod is, where its namespace is, and the addressing taken from
 * its {@code k8s.ovn.org/pod-networks} annotation.
 *
 * @param namespace pod namespace
 * @param podName pod name
 * @param podUid pod UID (becomes {@code iface-id-ver}); may be null when unknown
 * @param containerId the CNI container (sandbox) id; the host-side veth name derives from it
 * @param podNetns the pod's network namespace
 * @param ifName interface name inside the pod, normally {@code eth0}
 * @param mac MAC address, e.g. {@code 0a:58:0a:f4:01:03}
 * @param ipCidrs addresses with prefix length, e.g. {@code 10.244.1.3/24}
 * @param gatewayIps default gateways (one per IP family)
 * @param routes extra routes
 * @param mtu interface MTU (both veth ends)
 * @param ifaceId the OVN logical switch port the OVS port is bound to ({@code external_ids:iface-id})
 * @param hostInterface the host-side veth name (at most 15 characters)
 */
public record PodInterfaceSpec(
        String namespace,
        String podName,
        String podUid,
        String containerId,
        Netns podNetns,
        String ifName,
        String mac,
        List<String> ipCidrs,
        List<String> gatewayIps,
        List<PodRoute> routes,
        int mtu,
        String ifaceId,
        String hostInterface) {
    public PodInterfaceSpec {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(podName, "podName");
        Objects.requireNonNull(containerId, "containerId");
        Objects.requireNonNull(podNetns, "podNetns");
        Netns.requireLinkName(ifName);
        Objects.requireNonNull(mac, "mac");
        ipCidrs = List.copyOf(ipCidrs);
        gatewayIps = List.copyOf(gatewayIps);
        routes = List.copyOf(routes);
        if (mtu < 576 || mtu > 65535) {
            throw new IllegalArgumentException("MTU out of range: " + mtu);
        }
        Objects.requireNonNull(ifaceId, "ifaceId");
        Netns.requireLinkName(hostInterface);
    }

    /**
     * The pod's default-network interface: bound to the logical switch port {@code <namespace>_<pod>}, host end named
     * by {@link PodPlumber#hostInterfaceName}.
     */
    public PodInterfaceSpec(
            String namespace,
            String podName,
            String podUid,
            String containerId,
            Netns podNetns,
            String ifName,
            String mac,
            List<String> ipCidrs,
            List<String> gatewayIps,
            List<PodRoute> routes,
            int mtu) {
        this(
                namespace,
                podName,
                podUid,
                containerId,
                podNetns,
                ifName,
                mac,
                ipCidrs,
                gatewayIps,
                routes,
                mtu,
                namespace + "_" + podName,
                PodPlumber.hostInterfaceName(containerId));
    }

    /**
     * A route inside the pod.
     *
     * @param destination CIDR
     * @param nextHop gateway address
     */
    public record PodRoute(String destination, String nextHop) {
        public PodRoute {
            Objects.requireNonNull(destination, "destination");
            Objects.requireNonNull(nextHop, "nextHop");
        }
    }
}
