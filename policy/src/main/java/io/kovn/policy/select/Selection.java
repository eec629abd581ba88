package io.kovn.policy.select;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.Objects;

/**
 * One question a translation asked {@link ClusterIndex}, as a value: what a memoized translation depends on. When
 * objects change, {@link ClusterIndex#apply} names the selections whose answers may have changed, and everything that
 * read them is translated again.
 */
public sealed interface Selection {

    // Selections are hashed on every read (sets of what a computation read, the index's known set), and
    // a LabelSelector's hash walks its whole tree: the hash is computed once, when the selection is made.

    /** {@link ClusterIndex#namespaces(LabelSelector)}. */
    record Namespaces(LabelSelector selector, int hash) implements Selection {
        public Namespaces(LabelSelector selector) {
            this(selector, Objects.hashCode(selector));
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** {@link ClusterIndex#pods(String, LabelSelector)}: pods of one namespace. */
    record NamespacePods(String namespace, LabelSelector podSelector, int hash) implements Selection {
        public NamespacePods(String namespace, LabelSelector podSelector) {
            this(namespace, podSelector, 31 * namespace.hashCode() + Objects.hashCode(podSelector));
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** {@link ClusterIndex#pods(LabelSelector, LabelSelector)} and {@link ClusterIndex#podIps}. */
    record SelectedPods(LabelSelector namespaceSelector, LabelSelector podSelector, int hash) implements Selection {
        public SelectedPods(LabelSelector namespaceSelector, LabelSelector podSelector) {
            this(
                    namespaceSelector,
                    podSelector,
                    31 * Objects.hashCode(namespaceSelector) + Objects.hashCode(podSelector));
        }

        @Override
        public int hashCode() {
            return hash;
        }

        /**
         * The hash, then the selectors' identity (a policy's selector objects live as long as its spec), then their
         * content.
         */
        @Override
        public boolean equals(Object o) {
            return o == this
                    || o instanceof SelectedPods p
                            && p.hash == hash
                            && (p.namespaceSelector == namespaceSelector
                                    || Objects.equals(p.namespaceSelector, namespaceSelector))
                            && (p.podSelector == podSelector || Objects.equals(p.podSelector, podSelector));
        }
    }

    /** {@link ClusterIndex#allPods()}. */
    record AllPods() implements Selection {}

    /** {@link ClusterIndex#nodes(LabelSelector)}. */
    record Nodes(LabelSelector selector) implements Selection {}

    /** {@link ClusterIndex#hasNamespace} and {@link ClusterIndex#namespaceLabels} of one namespace. */
    record NamespaceFacts(String namespace) implements Selection {}
}
