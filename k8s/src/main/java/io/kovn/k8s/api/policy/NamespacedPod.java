package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * Pods selected by labels within namespaces selected by labels; both selectors are required, {@code {}} selects all.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NamespacedPod(LabelSelector namespaceSelector, LabelSelector podSelector) {}
