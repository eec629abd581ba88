package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kovn.k8s.api.policy.NamespacedPod;
import java.util.List;

/**
 * A destination of egress traffic: exactly one of {@code namespaces}, {@code pods}, {@code nodes} (node IPs from
 * {@code status.addresses}), {@code networks} (up to 25 CIDRs, matching any IP including pod and node IPs) or
 * {@code domainNames} (experimental, up to 25, Accept rules only; kovn refuses such rules with a condition). A peer
 * with none set is an unknown option: fail closed.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ClusterNetworkPolicyEgressPeer(
        LabelSelector namespaces,
        NamespacedPod pods,
        LabelSelector nodes,
        List<String> networks,
        List<String> domainNames) {

    public ClusterNetworkPolicyEgressPeer {
        networks = networks == null ? List.of() : List.copyOf(networks);
        domainNames = domainNames == null ? List.of() : List.copyOf(domainNames);
    }

    public static ClusterNetworkPolicyEgressPeer namespaces(LabelSelector selector) {
        return new ClusterNetworkPolicyEgressPeer(selector, null, null, null, null);
    }

    public static ClusterNetworkPolicyEgressPeer pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        return new ClusterNetworkPolicyEgressPeer(
                null, new NamespacedPod(namespaceSelector, podSelector), null, null, null);
    }

    public static ClusterNetworkPolicyEgressPeer nodes(LabelSelector selector) {
        return new ClusterNetworkPolicyEgressPeer(null, null, selector, null, null);
    }

    public static ClusterNetworkPolicyEgressPeer networks(List<String> cidrs) {
        return new ClusterNetworkPolicyEgressPeer(null, null, null, cidrs, null);
    }

    public static ClusterNetworkPolicyEgressPeer domainNames(List<String> names) {
        return new ClusterNetworkPolicyEgressPeer(null, null, null, null, names);
    }
}
