package io.kovn.policy.select;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.topology.TopologyNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pod's addresses as policies read them (the controller's address sets, {@code kovn analyze}, {@code kovn trace}):
 * the allocation first, the kubelet's report only without one. A pod with a primary user-defined network is on that
 * network for policies: its addresses and port there.
 *
 * <p>The zone controller writes {@code k8s.ovn.org/pod-networks} before the CNI plugin can wire the pod, the kubelet
 * writes {@code status.podIPs} only after it has: a pod can send in between, so a Deny that names it by address must
 * follow the allocation (issue 38). Host-network pods, pods of other network plugins and manifests without the
 * annotation keep their status addresses; a malformed annotation counts as none (the zone controller reports it, and
 * CNI ADD refuses it).
 */
public final class PodAddresses {
    private PodAddresses() {}

    /**
     * The allocated addresses of the pod's primary network without prefix length (those of its primary user-defined
     * network when it has one: policies select it there), else the status addresses.
     */
    public static List<String> of(Pod pod) {
        List<String> allocated = allocated(pod.getMetadata().getAnnotations());
        return allocated.isEmpty() ? reported(pod.getStatus()) : allocated;
    }

    /**
     * The logical switch port of the pod's primary network: {@code <namespace>_<pod>}, or its port on its primary
     * user-defined network ({@link TopologyNames#userDefinedPodPort}).
     */
    public static String portName(Pod pod) {
        return primary(pod).portName();
    }

    /**
     * A pod on its primary network, its annotation read once: its addresses there (as {@link #of}) and its port
     * ({@link #portName}).
     */
    public record Primary(List<String> ips, String portName) {}

    /** {@link Primary} of a pod. */
    public static Primary primary(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        Optional<PodNetworks> networks = networks(pod.getMetadata().getAnnotations());
        var udn = networks.flatMap(PodNetworks::primaryUserDefined);
        String port = udn.map(e -> TopologyNames.userDefinedPodPort(e.getKey(), ns, name))
                .orElse(TopologyNames.podPort(ns, name));
        List<String> allocated = addresses(networks);
        return new Primary(allocated.isEmpty() ? reported(pod.getStatus()) : allocated, port);
    }

    /** The primary network's {@code ip_addresses} of the annotation, none when absent or malformed. */
    static List<String> allocated(Map<String, String> annotations) {
        return addresses(networks(annotations));
    }

    private static List<String> addresses(Optional<PodNetworks> networks) {
        PodNetwork network = networks.flatMap(
                        n -> n.primaryUserDefined().map(Map.Entry::getValue).or(n::defaultNetwork))
                .orElse(null);
        return network == null
                ? List.of()
                : network.ipAddresses().stream()
                        .map(IpPrefix::address)
                        .map(IpLiterals::format)
                        .toList();
    }

    private static Optional<PodNetworks> networks(Map<String, String> annotations) {
        String value = annotations == null ? null : annotations.get(OvnAnnotations.POD_NETWORKS);
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(PodNetworks.parse(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** {@code status.podIPs}, or {@code status.podIP} when a server filled only that. */
    static List<String> reported(PodStatus status) {
        List<String> ips = new ArrayList<>();
        if (status != null && status.getPodIPs() != null && !status.getPodIPs().isEmpty()) {
            for (PodIP ip : status.getPodIPs()) {
                if (ip.getIp() != null) {
                    ips.add(ip.getIp());
                }
            }
        } else if (status != null && status.getPodIP() != null) {
            ips.add(status.getPodIP());
        }
        return ips;
    }
}
