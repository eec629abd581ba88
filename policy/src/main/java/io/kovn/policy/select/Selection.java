package io.kovn.policy.select;

import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * One question a translation asked {@link ClusterIndex}, as a value: what a memoized translation
 * depends on. When objects change, {@link ClusterIndex#apply} names the selections whose answers may
 * have changed, and everything that read them is translated again.
 */
public sealed interface Selection {

    /** {@link ClusterIndex#namespaces(LabelSelector)}. */
    record Namespaces(LabelSelector selector) implements Selection {
    }

    /** {@link ClusterIndex#pods(String, LabelSelector)}: pods of one namespace. */
    record NamespacePods(String namespace, LabelSelector podSelector) implements Selection {
    }

    /** {@link ClusterIndex#pods(LabelSelector, LabelSelector)} and {@link ClusterIndex#podIps}. */
    record SelectedPods(LabelSelector namespaceSelector, LabelSelector podSelector) implements Selection {
    }

    /** {@link ClusterIndex#allPods()}. */
    record AllPods() implements Selection {
    }

    /** {@link ClusterIndex#nodes(LabelSelector)}. */
    record Nodes(LabelSelector selector) implements Selection {
    }

    /** {@link ClusterIndex#hasNamespace} and {@link ClusterIndex#namespaceLabels} of one namespace. */
    record NamespaceFacts(String namespace) implements Selection {
    }
}
