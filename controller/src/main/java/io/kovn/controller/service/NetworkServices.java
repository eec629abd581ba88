package io.kovn.controller.service;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovsdb.data.Uuid;
import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Services of a namespace with a primary user-defined network: reached from that network only. Their endpoints are
 * mirrored to the pods' network addresses (as the reference's EndpointSlice mirror controller does, without writing
 * mirrored slices: the zone reads the pods' annotations), and their ClusterIP load balancers sit on the network's
 * switch in this zone instead of the default network's groups: default-network pods never see them. Pure.
 */
public final class NetworkServices {
    private NetworkServices() {}

    /**
     * A namespace's primary network as its services need it.
     *
     * @param network the network's name
     * @param prefix the network's prefix of OVN names
     * @param networkSwitch the network's switch in this zone, once its topology made it
     */
    public record Target(String network, String prefix, Optional<Uuid> networkSwitch) {}

    /**
     * The slices with each pod endpoint's address replaced by the pod's address of the slice's family on its primary
     * network; endpoints of pods without one are left out.
     *
     * @param pods the pods by {@code <ns>/<name>}
     */
    public static List<EndpointSlice> mirrored(List<EndpointSlice> slices, Function<String, Pod> pods) {
        List<EndpointSlice> out = new ArrayList<>();
        for (EndpointSlice s : slices) {
            boolean v6 = "IPv6".equals(s.getAddressType());
            List<Endpoint> endpoints = new ArrayList<>();
            for (Endpoint e : s.getEndpoints() == null ? List.<Endpoint>of() : s.getEndpoints()) {
                if (e.getTargetRef() == null || !"Pod".equals(e.getTargetRef().getKind())) continue;
                Pod pod = pods.apply(
                        e.getTargetRef().getNamespace() + "/" + e.getTargetRef().getName());
                networkAddress(pod, v6)
                        .ifPresent(ip -> endpoints.add(new EndpointBuilder(e)
                                .withAddresses(List.of(ip))
                                .build()));
            }
            out.add(new EndpointSliceBuilder(s).withEndpoints(endpoints).build());
        }
        return out;
    }

    /** The pod's address of a family on its primary user-defined network. */
    static Optional<String> networkAddress(Pod pod, boolean v6) {
        Map<String, String> a = pod == null ? null : pod.getMetadata().getAnnotations();
        String value = a == null ? null : a.get(OvnAnnotations.POD_NETWORKS);
        if (value == null) return Optional.empty();
        try {
            return PodNetworks.parse(value)
                    .primaryUserDefined()
                    .map(Map.Entry::getValue)
                    .map(PodNetwork::ipAddresses)
                    .flatMap(ips -> ips.stream()
                            .filter(p -> (p.address() instanceof Inet6Address) == v6)
                            .findFirst())
                    .map(p -> IpLiterals.format(p.address()));
        } catch (AnnotationFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The network's load balancers of a service: its cluster-wide ones (ClusterIPs) only, no NodePorts (a network has
     * no gateway router yet), named with the network's prefix and carrying its name.
     */
    public static List<ServiceLoadBalancer> onNetwork(List<ServiceLoadBalancer> lbs, Target target) {
        List<ServiceLoadBalancer> out = new ArrayList<>();
        for (ServiceLoadBalancer lb : lbs) {
            if (!lb.groups().equals(Set.of(ServiceModel.CLUSTER_LB_GROUP))) continue;
            Map<String, String> ids = new HashMap<>(lb.externalIds());
            ids.put("k8s.ovn.org/network", target.network());
            out.add(new ServiceLoadBalancer(
                    target.prefix() + lb.name(),
                    lb.protocol(),
                    lb.vips(),
                    lb.options(),
                    lb.selectionFields(),
                    ids,
                    Set.of()));
        }
        return out;
    }
}
