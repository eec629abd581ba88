package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * A source of ingress traffic: exactly one of {@code namespaces} or {@code pods}. A peer with neither set is an unknown
 * option: fail closed. Host-network pods are never peers.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdminNetworkPolicyIngressPeer(LabelSelector namespaces, NamespacedPod pods) {

    public static AdminNetworkPolicyIngressPeer namespaces(LabelSelector selector) {
        return new AdminNetworkPolicyIngressPeer(selector, null);
    }

    public static AdminNetworkPolicyIngressPeer pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        return new AdminNetworkPolicyIngressPeer(null, new NamespacedPod(namespaceSelector, podSelector));
    }
}
