package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Index functions kovn's controllers share, and lookups through them. Add an index before the informer starts
 * ({@link SharedIndexInformer#addIndexers}); query it with {@link #byIndex}.
 */
public final class Indexes {

    /** Pods by {@code spec.nodeName} (unscheduled pods are not indexed). */
    public static final String POD_NODE = "kovn/pod-node";

    private Indexes() {}

    public static Function<Pod, List<String>> podNode() {
        return pod -> pod.getSpec() == null || pod.getSpec().getNodeName() == null
                ? List.of()
                : List.of(pod.getSpec().getNodeName());
    }

    /** Objects by the value of label {@code key} (objects without the label are not indexed). */
    public static <T extends HasMetadata> Function<T, List<String>> label(String key) {
        return object -> {
            Map<String, String> labels = object.getMetadata().getLabels();
            String value = labels == null ? null : labels.get(key);
            return value == null ? List.of() : List.of(value);
        };
    }

    /** The name of the label index created by {@link #label}; use it as the indexer name. */
    public static String labelIndexName(String key) {
        return "kovn/label:" + key;
    }

    /** The objects whose {@code index} yields {@code value}. */
    public static <T> List<T> byIndex(SharedIndexInformer<T> informer, String index, String value) {
        return informer.getIndexer().byIndex(index, value);
    }
}
