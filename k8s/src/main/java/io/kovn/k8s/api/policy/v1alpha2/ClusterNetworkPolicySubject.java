package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kovn.k8s.api.policy.NamespacedPod;

/**
 * The pods a ClusterNetworkPolicy applies to: exactly one of {@code namespaces} (all pods of the selected namespaces)
 * or {@code pods}. Host-network pods are never subjects.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterNetworkPolicySubject(LabelSelector namespaces, NamespacedPod pods) {

    /** All pods in namespaces matching {@code selector}. */
    public static ClusterNetworkPolicySubject namespaces(LabelSelector selector) {
        return new ClusterNetworkPolicySubject(selector, null);
    }

    /** Pods matching {@code podSelector} in namespaces matching {@code namespaceSelector}. */
    public static ClusterNetworkPolicySubject pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
        return new ClusterNetworkPolicySubject(null, new NamespacedPod(namespaceSelector, podSelector));
    }
}
