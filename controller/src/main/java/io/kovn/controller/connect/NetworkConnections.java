package io.kovn.controller.connect;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kovn.controller.network.Network;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.NetworkConnectSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.policy.evaluator.PolicyEvaluator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which networks the cluster's ClusterNetworkConnects connect, as the zones program them: the networks a CNC's
 * {@code k8s.ovn.org/network-connect-subnet} names (the cluster manager's selection), every pair of them whose subnets
 * do not overlap ({@link ConnectedPairs}), for pods when {@code connectivity} has {@code PodNetwork}, else for
 * ClusterIP services only; nothing for a CNC refused as {@code FeatureDisabled}. What {@code kovn analyze},
 * {@code trace} and {@code probe} follow across networks. Pure.
 */
public final class NetworkConnections {
    private NetworkConnections() {}

    /**
     * The connected pairs by {@link PolicyEvaluator#pairKey}; a pair two CNCs connect names the first with
     * {@code PodNetwork}.
     */
    public static Map<String, PolicyEvaluator.Connection> of(
            List<GenericKubernetesResource> cncs, List<Network> accepted) {
        Map<String, PolicyEvaluator.Connection> out = new TreeMap<>();
        List<GenericKubernetesResource> sorted = new ArrayList<>(cncs);
        sorted.sort(Comparator.comparing(o -> o.getMetadata().getName()));
        for (GenericKubernetesResource o : sorted) {
            Map<String, String> a = o.getMetadata().getAnnotations() == null
                    ? Map.of()
                    : o.getMetadata().getAnnotations();
            String value = a.get(OvnAnnotations.NETWORK_CONNECT_SUBNET);
            if (value == null || value.isBlank() || disabled(o)) continue;
            NetworkConnectSubnets blocks;
            try {
                blocks = NetworkConnectSubnets.parse(value);
            } catch (AnnotationFormatException e) {
                continue; // zones program nothing for it either
            }
            List<Network> selected = accepted.stream()
                    .filter(n -> !blocks.of(
                                    NetworkConnectSubnets.networkKey(n.topology() == Network.Topology.LAYER2, n.id()))
                            .isEmpty())
                    .toList();
            boolean pods;
            try {
                pods = ConnectSpec.parse(o.getAdditionalProperties().get("spec"))
                        .connectivity()
                        .contains(ConnectSpec.Connectivity.POD_NETWORK);
            } catch (InvalidConnectException e) {
                continue; // zones program nothing for it either
            }
            for (Network x : selected) {
                for (Network y : selected) {
                    if (x.id() >= y.id() || !ConnectedPairs.connects(x, y, selected)) continue;
                    PolicyEvaluator.Connection c =
                            new PolicyEvaluator.Connection(o.getMetadata().getName(), pods);
                    out.merge(
                            PolicyEvaluator.pairKey(x.name(), y.name()),
                            c,
                            (old, now) -> old.pods() || !now.pods() ? old : now);
                }
            }
        }
        return out;
    }

    /**
     * Whether the cluster manager says connecting networks is off ({@code Accepted=False}, {@code FeatureDisabled}).
     */
    public static boolean disabled(GenericKubernetesResource o) {
        return o.getAdditionalProperties().get("status") instanceof Map<?, ?> st
                && st.get("conditions") instanceof List<?> cs
                && cs.stream()
                        .anyMatch(c -> c instanceof Map<?, ?> m
                                && ConnectPlan.ACCEPTED.equals(m.get("type"))
                                && "False".equals(m.get("status"))
                                && ConnectPlan.FEATURE_DISABLED.equals(m.get("reason")));
    }
}
