package io.kovn.node;

import io.kovn.node.cni.PodRef;
import io.kovn.node.plumbing.PodInterfaceSpec;
import io.kovn.node.plumbing.PodPlumber;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.topology.TopologyNames;
import io.kovn.runtime.net.Netns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The interfaces a pod gets from its {@code k8s.ovn.org/pod-networks}: the default network's entry on {@code eth0}
 * (bound to {@code <namespace>_<pod>}), and, when the pod's namespace has a primary user-defined network, that
 * network's entry on {@value TopologyNames#USER_DEFINED_INTERFACE} (bound to {@link TopologyNames#userDefinedPodPort}).
 * The default entry of such a pod has no gateway, so the pod's default route goes through the user-defined network, as
 * in the reference. Pure.
 */
public final class PodInterfaces {
    private PodInterfaces() {}

    /**
     * One interface to wire and the annotation entry it comes from.
     *
     * @param key the entry's key in the annotation: {@code default} or the network's attachment
     */
    public record Planned(String key, PodNetwork network, PodInterfaceSpec spec) {}

    /**
     * The pod's interfaces, the default network's first.
     *
     * @param ifName the default network's interface in the pod (the request's, normally {@code eth0})
     * @param mtu the MTU of the default network's interface
     * @param primaryMtu the MTU of the primary user-defined network's interface, when the pod has one
     * @throws IllegalArgumentException when the annotation has no default entry, more than one primary user-defined
     *     network, a default entry that is primary too, or values a spec refuses (the message says which)
     */
    public static List<Planned> plan(
            PodRef pod,
            String containerId,
            Netns podNetns,
            String ifName,
            int mtu,
            int primaryMtu,
            PodNetworks networks) {
        PodNetwork defaultNetwork = networks.defaultNetwork()
                .orElseThrow(() -> new IllegalArgumentException("no \"" + OvnAnnotations.DEFAULT_NETWORK
                        + "\" entry in " + networks.byNetwork().keySet()));
        List<String> primaries = networks.byNetwork().entrySet().stream()
                .filter(e -> !e.getKey().equals(OvnAnnotations.DEFAULT_NETWORK)
                        && PodNetwork.ROLE_PRIMARY.equals(e.getValue().role()))
                .map(Map.Entry::getKey)
                .toList();
        if (primaries.size() > 1) {
            throw new IllegalArgumentException("more than one primary user-defined network: " + primaries);
        }
        if (!primaries.isEmpty() && PodNetwork.ROLE_PRIMARY.equals(defaultNetwork.role())) {
            throw new IllegalArgumentException("both \"" + OvnAnnotations.DEFAULT_NETWORK + "\" and \""
                    + primaries.getFirst() + "\" have role primary");
        }
        if (!primaries.isEmpty() && ifName.equals(TopologyNames.USER_DEFINED_INTERFACE)) {
            throw new IllegalArgumentException("interface name " + ifName + " is the primary network's");
        }
        String uid = pod.uid().isEmpty() ? null : pod.uid();
        List<Planned> out = new ArrayList<>();
        out.add(new Planned(
                OvnAnnotations.DEFAULT_NETWORK,
                defaultNetwork,
                new PodInterfaceSpec(
                        pod.namespace(),
                        pod.name(),
                        uid,
                        containerId,
                        podNetns,
                        ifName,
                        defaultNetwork.macAddress(),
                        cidrs(defaultNetwork),
                        gateways(defaultNetwork),
                        routes(defaultNetwork),
                        mtu)));
        networks.primaryUserDefined()
                .ifPresent(e -> out.add(new Planned(
                        e.getKey(),
                        e.getValue(),
                        new PodInterfaceSpec(
                                pod.namespace(),
                                pod.name(),
                                uid,
                                containerId,
                                podNetns,
                                TopologyNames.USER_DEFINED_INTERFACE,
                                e.getValue().macAddress(),
                                cidrs(e.getValue()),
                                gateways(e.getValue()),
                                routes(e.getValue()),
                                primaryMtu,
                                TopologyNames.userDefinedPodPort(e.getKey(), pod.namespace(), pod.name()),
                                PodPlumber.userDefinedHostInterfaceName(containerId)))));
        return out;
    }

    private static List<String> cidrs(PodNetwork n) {
        return n.ipAddresses().stream().map(Object::toString).toList();
    }

    private static List<String> gateways(PodNetwork n) {
        return n.gatewayIps().stream().map(IpLiterals::format).toList();
    }

    private static List<PodInterfaceSpec.PodRoute> routes(PodNetwork n) {
        return n.routes().stream()
                .map(r -> new PodInterfaceSpec.PodRoute(r.dest().toString(), IpLiterals.format(r.nextHop())))
                .toList();
    }
}
