package io.kovn.controller.zone;

import io.kovn.controller.network.AcceptedNetworks;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.NetworkPlan;
import java.util.List;
import java.util.Map;

/**
 * Which network a pod's namespace gives it, decided the same way on every zone from the accepted networks and the
 * namespace's labels. Pure.
 */
sealed interface PodNetworkChoice {
    /** No primary user-defined network: the default network is the pod's primary one. */
    record Default() implements PodNetworkChoice {}

    /**
     * The namespace's primary user-defined network.
     *
     * @param network the accepted network
     * @param attachment the pod's key of it in {@code pod-networks}: {@code <namespace>/<UDN or CUDN name>}
     */
    record Primary(Network network, String attachment) implements PodNetworkChoice {}

    /** The pod may not be given addresses yet (the reason says why; the pod waits). */
    record Pending(String reason) implements PodNetworkChoice {}

    Default DEFAULT = new Default();

    /** @param labels the namespace's labels; null when the namespace is not known (yet) */
    static PodNetworkChoice of(String namespace, Map<String, String> labels, List<AcceptedNetworks.Accepted> accepted) {
        if (labels == null) {
            return new Pending("namespace " + namespace + " is not known yet");
        }
        if (!NetworkPlan.labelled(labels)) {
            return DEFAULT;
        }
        return AcceptedNetworks.primaryOf(namespace, labels, accepted)
                .<PodNetworkChoice>map(a -> new Primary(a.network(), a.attachment(namespace)))
                .orElseGet(() -> new Pending("namespace " + namespace + " carries "
                        + NetworkPlan.PRIMARY_NAMESPACE_LABEL + " but has no primary user-defined network yet"));
    }
}
