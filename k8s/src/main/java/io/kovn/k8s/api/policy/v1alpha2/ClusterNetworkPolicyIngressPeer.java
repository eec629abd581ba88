package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kovn.k8s.api.policy.NamespacedPod;

/**
 * A source of ingress traffic: exactly one of {@code namespaces} or {@code pods}. A peer with neither set is an unknown
 * option: fail closed (an Accept rule matches nothing, a Deny or Pass rule denies all). Host-network pods are never
 * peers.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterNetworkPolicyIngressPeer(LabelSelector namespaces, NamespacedPod pods) {

    public static ClusterNetworkPolicyIngressPeer namespaces(LabelSelector selector) {
        return new ClusterNetworkPolicyIngressPeer(selector, null);
    }

    public static ClusterNetworkPolicyIngressPeer pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        return new ClusterNetworkPolicyIngressPeer(null, new NamespacedPod(namespaceSelector, podSelector));
    }
}
