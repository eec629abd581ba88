package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;

/**
 * A destination of egress traffic: exactly one of {@code namespaces}, {@code pods}, {@code nodes} (node IPs from
 * {@code status.addresses}), {@code networks} (up to 25 CIDRs, matching any IP including pod and node IPs) or
 * {@code domainNames} (ANP only, not enforced by kovn's OVN translation). A peer with none set is an unknown option:
 * fail closed.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AdminNetworkPolicyEgressPeer(
        LabelSelector namespaces,
        NamespacedPod pods,
        LabelSelector nodes,
        List<String> networks,
        List<String> domainNames) {

    public AdminNetworkPolicyEgressPeer {
        networks = networks == null ? List.of() : List.copyOf(networks);
        domainNames = domainNames == null ? List.of() : List.copyOf(domainNames);
    }

    public static AdminNetworkPolicyEgressPeer namespaces(LabelSelector selector) {
        return new AdminNetworkPolicyEgressPeer(selector, null, null, null, null);
    }

    public static AdminNetworkPolicyEgressPeer pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        return new AdminNetworkPolicyEgressPeer(
                null, new NamespacedPod(namespaceSelector, podSelector), null, null, null);
    }

    public static AdminNetworkPolicyEgressPeer nodes(LabelSelector selector) {
        return new AdminNetworkPolicyEgressPeer(null, null, selector, null, null);
    }

    public static AdminNetworkPolicyEgressPeer networks(List<String> cidrs) {
        return new AdminNetworkPolicyEgressPeer(null, null, null, cidrs, null);
    }
}
