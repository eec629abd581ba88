package io.kovn.controller.network;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The user-defined networks a zone builds: those the cluster manager accepted, read back from their
 * objects ({@code NetworkCreated=True} and a {@code k8s.ovn.org/network-id}), so that zones never
 * judge a network themselves and all agree with the one place that does. Pure.
 */
public final class AcceptedNetworks {
    private AcceptedNetworks() {}

    /** The accepted networks among these UDNs and CUDNs, by id. */
    public static List<Network> of(List<GenericKubernetesResource> udns, List<GenericKubernetesResource> cudns) {
        List<Network> out = new ArrayList<>();
        udns.forEach(o -> read(o, false).ifPresent(out::add));
        cudns.forEach(o -> read(o, true).ifPresent(out::add));
        out.sort(Comparator.comparingInt(Network::id));
        return List.copyOf(out);
    }

    /** One object's network, if the cluster manager accepted it. */
    public static Optional<Network> read(GenericKubernetesResource o, boolean cluster) {
        if (!created(o)) return Optional.empty();
        NetworkPlan.Declaration d = NetworkPlan.Declaration.of(cluster ? NetworkPlan.Kind.CUDN : NetworkPlan.Kind.UDN, o);
        if (d.annotatedId().isEmpty()) return Optional.empty();
        try {
            NetworkSpec s = NetworkSpec.parse(d.spec());
            return Optional.of(new Network(d.networkName(), d.annotatedId().get(), s.topology(), s.role(), s.subnets(), s.mtu(),
                    s.joinSubnets()));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // the cluster manager's verdict will say why
        }
    }

    private static boolean created(GenericKubernetesResource o) {
        if (!(o.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) return false;
        if (!(status.get("conditions") instanceof List<?> conditions)) return false;
        for (Object c : conditions) {
            if (c instanceof Map<?, ?> m && NetworkController.NETWORK_CREATED.equals(m.get("type"))) {
                return "True".equals(m.get("status"));
            }
        }
        return false;
    }
}
