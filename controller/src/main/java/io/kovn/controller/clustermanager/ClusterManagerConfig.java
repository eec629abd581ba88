package io.kovn.controller.clustermanager;

import io.kovn.controller.network.ClusterNetwork;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What the cluster manager hands out, and where its controllers report.
 *
 * @param clusterNetworks the cluster networks node subnets are cut from (IPv4, IPv6 or both)
 * @param transitV4 the IPv4 transit switch network (node address = network + node id)
 * @param transitV6 the IPv6 transit switch network
 * @param maxNodeId the largest node id handed out (at most {@value NodeId#MAX}; smaller in tests)
 * @param controllerMetrics queue and reconcile metrics of the cluster manager's controllers (one instance per registry)
 * @param serviceNetworks the cluster's service CIDRs, which user-defined networks must not overlap
 * @param enableConnectingNetworks whether ClusterNetworkConnects are served (off: each is told so and gets nothing)
 * @param networkSegmentation whether user-defined networks are served (off: UDNs and CUDNs are not watched, get no
 *     network id, condition or node subnets; connecting networks needs it)
 * @param adminNetworkPolicies whether the AdminNetworkPolicy side of the cluster manager runs (off: deleted nodes'
 *     {@code Ready-In-Zone-<node>} conditions are left on ANPs, BANPs and ClusterNetworkPolicies)
 */
public record ClusterManagerConfig(
        List<ClusterNetwork> clusterNetworks,
        IpPrefix transitV4,
        IpPrefix transitV6,
        int maxNodeId,
        ControllerMetrics controllerMetrics,
        List<IpPrefix> serviceNetworks,
        boolean enableConnectingNetworks,
        boolean networkSegmentation,
        boolean adminNetworkPolicies) {
    /** kubeadm's default service CIDR. */
    public static final List<IpPrefix> DEFAULT_SERVICE_NETWORKS = List.of(IpPrefix.parse("10.96.0.0/16"));

    public ClusterManagerConfig {
        clusterNetworks = List.copyOf(clusterNetworks);
        serviceNetworks = List.copyOf(serviceNetworks);
        Objects.requireNonNull(transitV4, "transitV4");
        Objects.requireNonNull(transitV6, "transitV6");
        Objects.requireNonNull(controllerMetrics, "controllerMetrics");
        if (clusterNetworks.isEmpty()) {
            throw new IllegalArgumentException("no cluster network");
        }
        if (transitV4.family() != IpFamily.IPV4 || transitV6.family() != IpFamily.IPV6) {
            throw new IllegalArgumentException("transit networks must be IPv4 and IPv6");
        }
        if (maxNodeId < NodeId.MIN || maxNodeId > NodeId.MAX) {
            throw new IllegalArgumentException("maxNodeId outside " + NodeId.MIN + ".." + NodeId.MAX);
        }
        if (enableConnectingNetworks && !networkSegmentation) {
            throw new IllegalArgumentException(
                    "connecting networks needs network segmentation (user-defined networks)");
        }
    }

    /**
     * The reference defaults: 10.244.0.0/16 with a /24 per node, 100.88.0.0/16 and fd97::/64, ids up to 5000; services
     * in {@link #DEFAULT_SERVICE_NETWORKS}; connecting networks disabled, user-defined networks and
     * AdminNetworkPolicies served.
     */
    public static ClusterManagerConfig defaults() {
        return of(List.of(ClusterNetwork.DEFAULT_V4));
    }

    /** The given cluster networks with the reference's transit networks and id range, no controller metrics. */
    public static ClusterManagerConfig of(List<ClusterNetwork> clusterNetworks) {
        return new ClusterManagerConfig(
                clusterNetworks,
                NodeTransitSwitchPortIfaddr.DEFAULT_V4_NETWORK,
                NodeTransitSwitchPortIfaddr.DEFAULT_V6_NETWORK,
                NodeId.MAX,
                ControllerMetrics.NONE,
                DEFAULT_SERVICE_NETWORKS,
                false,
                true,
                true);
    }

    /** This config with another id limit. */
    public ClusterManagerConfig withMaxNodeId(int max) {
        return with(c -> c.maxNodeId = max);
    }

    /** This config with the controllers reporting to {@code controllerMetrics}. */
    public ClusterManagerConfig withControllerMetrics(ControllerMetrics controllerMetrics) {
        return with(c -> c.controllerMetrics = controllerMetrics);
    }

    /** This config for a cluster with these service CIDRs. */
    public ClusterManagerConfig withServiceNetworks(List<IpPrefix> serviceNetworks) {
        return with(c -> c.serviceNetworks = serviceNetworks);
    }

    /** This config with ClusterNetworkConnects served or not. */
    public ClusterManagerConfig withConnectingNetworks(boolean enabled) {
        return with(c -> c.enableConnectingNetworks = enabled);
    }

    /** This config with user-defined networks served or not. */
    public ClusterManagerConfig withNetworkSegmentation(boolean enabled) {
        return with(c -> c.networkSegmentation = enabled);
    }

    /** This config with the AdminNetworkPolicy side (zone condition cleanup) run or not. */
    public ClusterManagerConfig withAdminNetworkPolicies(boolean enabled) {
        return with(c -> c.adminNetworkPolicies = enabled);
    }

    /** Applies {@code change} to a copy of this configuration's components (validated again on the way back). */
    private ClusterManagerConfig with(Consumer<Components> change) {
        Components c = new Components(this);
        change.accept(c);
        return c.config();
    }

    /** The canonical constructor's arguments, one of which a wither changes. */
    private static final class Components {
        List<ClusterNetwork> clusterNetworks;
        IpPrefix transitV4;
        IpPrefix transitV6;
        int maxNodeId;
        ControllerMetrics controllerMetrics;
        List<IpPrefix> serviceNetworks;
        boolean enableConnectingNetworks;
        boolean networkSegmentation;
        boolean adminNetworkPolicies;

        Components(ClusterManagerConfig c) {
            clusterNetworks = c.clusterNetworks;
            transitV4 = c.transitV4;
            transitV6 = c.transitV6;
            maxNodeId = c.maxNodeId;
            controllerMetrics = c.controllerMetrics;
            serviceNetworks = c.serviceNetworks;
            enableConnectingNetworks = c.enableConnectingNetworks;
            networkSegmentation = c.networkSegmentation;
            adminNetworkPolicies = c.adminNetworkPolicies;
        }

        ClusterManagerConfig config() {
            return new ClusterManagerConfig(
                    clusterNetworks,
                    transitV4,
                    transitV6,
                    maxNodeId,
                    controllerMetrics,
                    serviceNetworks,
                    enableConnectingNetworks,
                    networkSegmentation,
                    adminNetworkPolicies);
        }
    }

    /** Whether the cluster has addresses of a family. */
    public boolean has(IpFamily family) {
        return clusterNetworks.stream().anyMatch(n -> n.family() == family);
    }
}
