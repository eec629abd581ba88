package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * The pods a policy applies to: exactly one of {@code namespaces} (all pods of the selected namespaces) or
 * {@code pods}. Host-network pods are never subjects.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdminNetworkPolicySubject(LabelSelector namespaces, NamespacedPod pods) {

    /** All pods in namespaces matching {@code selector}. */
    public static AdminNetworkPolicySubject namespaces(LabelSelector selector) {
        return new AdminNetworkPolicySubject(selector, null);
    }

    /** Pods matching {@code podSelector} in namespaces matching {@code namespaceSelector}. */
    public static AdminNetworkPolicySubject pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        return new AdminNetworkPolicySubject(null, new NamespacedPod(namespaceSelector, podSelector));
    }
}
