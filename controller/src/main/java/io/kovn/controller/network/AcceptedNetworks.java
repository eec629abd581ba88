package io.kovn.controller.network;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.policy.select.Selectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The user-defined networks a zone builds: those the cluster manager accepted, read back from their objects
 * ({@code NetworkCreated=True} and a {@code k8s.ovn.org/network-id}), so that zones never judge a network themselves
 * and all agree with the one place that does. Pure.
 */
public final class AcceptedNetworks {
    private AcceptedNetworks() {}

    /**
     * An accepted network and the object that declared it.
     *
     * @param declaration the UDN or CUDN as read
     * @param network its network
     */
    public record Accepted(NetworkPlan.Declaration declaration, Network network) {
        /** The network's key in a pod's {@code pod-networks}: {@code <namespace>/<UDN or CUDN name>}. */
        public String attachment(String namespace) {
            return namespace + "/" + declaration.name();
        }

        /** Whether the network is the primary network its declaration would give this namespace. */
        boolean claims(String namespace, Map<String, String> labels) {
            if (network.role() != Network.Role.PRIMARY) return false;
            return declaration.kind() == NetworkPlan.Kind.UDN
                    ? namespace.equals(declaration.namespace())
                    : Selectors.matches(declaration.namespaceSelector(), labels);
        }
    }

    /** The accepted networks among these UDNs and CUDNs with their declarations, by id. */
    public static List<Accepted> entries(List<GenericKubernetesResource> udns, List<GenericKubernetesResource> cudns) {
        List<Accepted> out = new ArrayList<>();
        udns.forEach(o -> accepted(o, false).ifPresent(out::add));
        cudns.forEach(o -> accepted(o, true).ifPresent(out::add));
        out.sort(Comparator.comparingInt(a -> a.network().id()));
        return List.copyOf(out);
    }

    /**
     * The primary network of a namespace: none unless its labels carry {@link NetworkPlan#PRIMARY_NAMESPACE_LABEL};
     * else the oldest accepted network that claims it (the one {@link NetworkPlan#plan} gave it: a younger UDN there
     * was refused, a younger CUDN skipped it).
     */
    public static Optional<Accepted> primaryOf(String namespace, Map<String, String> labels, List<Accepted> accepted) {
        if (!NetworkPlan.labelled(labels)) return Optional.empty();
        return accepted.stream()
                .filter(a -> a.claims(namespace, labels))
                .min(Comparator.comparing(Accepted::declaration, NetworkPlan.ORDER));
    }

    /**
     * The network of every pod whose namespace has a primary user-defined network, by {@code <ns>/<name>} (the others
     * are on the default network): what {@code kovn analyze} needs to know that pods of different networks never reach
     * each other.
     */
    public static Map<String, String> podNetworks(List<Namespace> namespaces, List<Accepted> accepted, List<Pod> pods) {
        Map<String, String> byNamespace = new HashMap<>();
        for (var ns : namespaces) {
            Map<String, String> labels = ns.getMetadata().getLabels() == null
                    ? Map.of()
                    : ns.getMetadata().getLabels();
            primaryOf(ns.getMetadata().getName(), labels, accepted)
                    .ifPresent(a -> byNamespace.put(
                            ns.getMetadata().getName(), a.network().name()));
        }
        Map<String, String> out = new HashMap<>();
        for (var p : pods) {
            String network = byNamespace.get(p.getMetadata().getNamespace());
            if (network != null)
                out.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), network);
        }
        return out;
    }

    private static Optional<Accepted> accepted(GenericKubernetesResource o, boolean cluster) {
        if (!created(o)) return Optional.empty();
        NetworkPlan.Declaration d =
                NetworkPlan.Declaration.of(cluster ? NetworkPlan.Kind.CUDN : NetworkPlan.Kind.UDN, o);
        if (d.annotatedId().isEmpty()) return Optional.empty();
        try {
            NetworkSpec s = NetworkSpec.parse(d.spec());
            return Optional.of(new Accepted(
                    d,
                    new Network(
                            d.networkName(),
                            d.annotatedId().get(),
                            s.topology(),
                            s.role(),
                            s.subnets(),
                            s.mtu(),
                            s.joinSubnets())));
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
