package io.kovn.node;

import io.kovn.controller.zone.ZoneModel;
import io.kovn.node.ovs.OvsBridgeConfig;
import io.kovn.node.ovs.OvsPaths;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one node agent runs.
 *
 * @param nodeName the Kubernetes Node this agent serves
 * @param ovs the chassis configuration to apply (system-id, encap IP, SB remote, datapath type)
 * @param ovsPaths this node's conf.db socket and OVS tools
 * @param nodeNetns the namespace br-int's ports live in (root on a real node)
 * @param cniSocket where the CNI server listens
 * @param podNetworksTimeout how long an ADD waits for the pod's pod-networks annotation
 * @param ovnInstalledTimeout how long an ADD waits for the port to become ovn-installed
 * @param defaultMtu pod MTU when the CNI configuration gives none
 * @param clusterSubnets the cluster's pod networks, routed through the management port
 */
public record NodeAgentConfig(
        String nodeName,
        OvsBridgeConfig ovs,
        OvsPaths ovsPaths,
        Netns nodeNetns,
        Path cniSocket,
        Duration podNetworksTimeout,
        Duration ovnInstalledTimeout,
        int defaultMtu,
        List<IpPrefix> clusterSubnets) {
    /**
     * A configuration with the cluster manager's default cluster network ({@link ZoneModel#DEFAULT_CLUSTER_SUBNETS}).
     */
    public NodeAgentConfig(
            String nodeName,
            OvsBridgeConfig ovs,
            OvsPaths ovsPaths,
            Netns nodeNetns,
            Path cniSocket,
            Duration podNetworksTimeout,
            Duration ovnInstalledTimeout,
            int defaultMtu) {
        this(
                nodeName,
                ovs,
                ovsPaths,
                nodeNetns,
                cniSocket,
                podNetworksTimeout,
                ovnInstalledTimeout,
                defaultMtu,
                ZoneModel.DEFAULT_CLUSTER_SUBNETS);
    }

    public NodeAgentConfig {
        clusterSubnets = List.copyOf(clusterSubnets);
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(ovs, "ovs");
        Objects.requireNonNull(ovsPaths, "ovsPaths");
        Objects.requireNonNull(nodeNetns, "nodeNetns");
        Objects.requireNonNull(cniSocket, "cniSocket");
        Objects.requireNonNull(podNetworksTimeout, "podNetworksTimeout");
        Objects.requireNonNull(ovnInstalledTimeout, "ovnInstalledTimeout");
    }

    /** The same configuration routing {@code subnets} as the cluster's pod networks. */
    public NodeAgentConfig withClusterSubnets(List<IpPrefix> subnets) {
        return new NodeAgentConfig(
                nodeName,
                ovs,
                ovsPaths,
                nodeNetns,
                cniSocket,
                podNetworksTimeout,
                ovnInstalledTimeout,
                defaultMtu,
                subnets);
    }

    /** 30 s for the annotation, 20 s for ovn-installed, MTU 1400 (geneve over a 1500 underlay). */
    public static NodeAgentConfig defaults(
            String nodeName, OvsBridgeConfig ovs, OvsPaths ovsPaths, Netns nodeNetns, Path cniSocket) {
        return new NodeAgentConfig(
                nodeName, ovs, ovsPaths, nodeNetns, cniSocket, Duration.ofSeconds(30), Duration.ofSeconds(20), 1400);
    }
}
